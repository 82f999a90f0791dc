// Package note formats the git note planx attaches to each task commit: the
// whole output of the task's gates, which is too long for the commit message
// and would otherwise stay in .git/planx on the machine that ran them.
//
// It is a package of its own so the executor can write notes without
// importing package review (which imports the executor).
package note

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/execlog"
)

// Ref is the notes ref planx writes. Notes are not pushed or fetched by
// default: git push origin refs/notes/planx, and
// git fetch origin refs/notes/planx:refs/notes/planx.
const Ref = "refs/notes/planx"

// Format renders the gate results of task, each with its whole output from
// outputs (keyed by gate name) or, when the output is not there, the tail the
// log kept. The result is deterministic plain text, one section per gate:
//
//	planx gate output of T003
//
//	== gate test: pass (exit 0, 12ms)
//	$ go test ./...
//	ok  example.com/x  0.01s
func Format(task string, gs []execlog.Gate, outputs map[string]string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "planx gate output of %s\n", task)
	for _, g := range gs {
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
		out, whole := outputs[g.Name]
		if !whole {
			out = g.Tail
			if out != "" {
				b.WriteString("(last lines only)\n")
			}
		}
		b.WriteString(out)
		if out != "" && !strings.HasSuffix(out, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}
