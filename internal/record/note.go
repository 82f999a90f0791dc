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

// NoteMeta is what a note says it belongs to.
type NoteMeta struct {
	Task   string
	Commit string // the task commit the note was written for
	Tree   string // that commit's tree
}

// NoteFor is Note with the commit and tree the note belongs to on the lines
// after the title, so that a note moved to another commit (or written by
// hand for one) is told apart from planx's:
//
//	planx gate output of T003
//	Commit: <sha>
//	Tree: <sha>
func NoteFor(m NoteMeta, gates []GateOutput) []byte {
	b := Note(m.Task, gates)
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

// ParsedNote is a note read back.
type ParsedNote struct {
	NoteMeta
	// Verdicts maps each gate section's name to "pass" or "fail".
	Verdicts map[string]string
}

// ParseNote reads the title, the Commit and Tree lines and the gate
// verdicts of a note; ok is false when it does not start like planx's.
func ParseNote(b []byte) (p ParsedNote, ok bool) {
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
				if _, seen := p.Verdicts[name]; !seen { // a gate's own output cannot overwrite its verdict
					p.Verdicts[name] = verdict
				}
			}
		}
	}
	return p, true
}
