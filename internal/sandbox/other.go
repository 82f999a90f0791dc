//go:build !linux

package sandbox

import (
	"fmt"
	"io"
	"os/exec"
)

// Main is the helper; only Linux has one.
func Main(args []string, stderr io.Writer) int {
	fmt.Fprintln(stderr, "planx sandbox: no helper on this platform")
	return 126
}

func probe(string) Level { return None }

func wrapAttr(*exec.Cmd, Level) error { return nil }
