// Package prompt asks the person at the terminal a yes/no question, the one
// way planx does it everywhere (abort, approve, consent to risky steps).
package prompt

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// YesNo writes question to out and reads one line from in: "y" or "yes"
// (any case) is yes; anything else, an empty line or end of input is no,
// as the "[y/N]" in the questions says.
func YesNo(in io.Reader, out io.Writer, question string) bool {
	fmt.Fprint(out, question)
	line, _ := bufio.NewReader(in).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}
