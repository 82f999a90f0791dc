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

// Meta is what a note says it belongs to.
type Meta struct {
	Task   string
	Commit string // the task commit the note was written for
	Tree   string // that commit's tree
}

// FormatFor is Format with the commit and tree the note belongs to on the
// lines after the title, so a note moved to another commit (or written by
// hand for one) is told apart from planx's:
//
//	planx gate output of T003
//	Commit: <sha>
//	Tree: <sha>
func FormatFor(m Meta, gs []execlog.Gate, outputs map[string]string) []byte {
	b := Format(m.Task, gs, outputs)
	title, rest, _ := bytes.Cut(b, []byte("\n"))
	var out bytes.Buffer
	out.Write(title)
	out.WriteByte('\n')
	if m.Commit != "" {
		fmt.Fprintf(&out, "Commit: %s\n", m.Commit)
	}
	if m.Tree != "" {
		fmt.Fprintf(&out, "Tree: %s\n", m.Tree)
	}
	out.Write(rest)
	return out.Bytes()
}

// Parsed is a note read back.
type Parsed struct {
	Meta
	// Verdicts maps each gate section's name to "pass" or "fail".
	Verdicts map[string]string
}

// Parse reads the title, the Commit and Tree lines and the gate verdicts of
// a note; ok is false when it does not start like a planx note.
func Parse(b []byte) (p Parsed, ok bool) {
	lines := strings.Split(string(b), "\n")
	task, ok := strings.CutPrefix(lines[0], "planx gate output of ")
	if !ok {
		return p, false
	}
	p.Task, p.Verdicts = task, map[string]string{}
	for i, l := range lines[1:] {
		if i < 2 {
			if v, ok := strings.CutPrefix(l, "Commit: "); ok {
				p.Commit = v
			}
			if v, ok := strings.CutPrefix(l, "Tree: "); ok {
				p.Tree = v
			}
		}
		if rest, ok := strings.CutPrefix(l, "== gate "); ok {
			if name, v, ok := strings.Cut(rest, ": "); ok {
				verdict, _, _ := strings.Cut(v, " ")
				p.Verdicts[name] = verdict
			}
		}
	}
	return p, true
}
