package record

import (
	"bytes"
	"fmt"
	"strings"
	"time"
)

// NoteRef is the notes ref planx writes each task commit's whole gate
// output to: too long for the commit message, and otherwise left in
// .git/planx on the machine that ran the gates. Notes are not pushed or
// fetched by default: git push origin refs/notes/planx, and
// git fetch origin refs/notes/planx:refs/notes/planx.
const NoteRef = "refs/notes/planx"

// GateOutput is one gate's result as the note shows it.
type GateOutput struct {
	Name     string
	Command  string
	Passed   bool
	ExitCode int
	Duration time.Duration
	TimedOut bool
	Output   string
	Whole    bool // Output is the whole output, not only its last lines
}

// Note renders the gate results of task, deterministic plain text with one
// section per gate:
//
//	planx gate output of T003
//
//	== gate test: pass (exit 0, 12ms)
//	$ go test ./...
//	ok  example.com/x  0.01s
func Note(task string, gates []GateOutput) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "planx gate output of %s\n", task)
	for _, g := range gates {
		verdict := "fail"
		if g.Passed {
			verdict = "pass"
		}
		extra := ""
		if g.TimedOut {
			extra = ", timed out"
		}
		fmt.Fprintf(&b, "\n== gate %s: %s (exit %d, %dms%s)\n", g.Name, verdict, g.ExitCode, g.Duration.Milliseconds(), extra)
		if g.Command != "" {
			fmt.Fprintf(&b, "$ %s\n", g.Command)
		}
		if !g.Whole && g.Output != "" {
			b.WriteString("(last lines only)\n")
		}
		b.WriteString(g.Output)
		if g.Output != "" && !strings.HasSuffix(g.Output, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}
