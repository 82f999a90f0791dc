// Package linediff shows how a task's text changed, line by line, for drift
// reports (planx status, resume and verify).
package linediff

import (
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Lines returns old against new line by line: "-" for removed lines, "+"
// for added ones and " " for context, the way a person reads a patch. Both
// sides are normalised like Task.Hash (CRLF, trailing blanks) so the diff
// shows the change the hash saw, not line-ending noise.
func Lines(old, new string) string {
	dmp := diffmatchpatch.New()
	a, b, lines := dmp.DiffLinesToChars(normalize(old), normalize(new))
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(a, b, false), lines)
	var out strings.Builder
	for _, d := range diffs {
		prefix := " "
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			prefix = "-"
		case diffmatchpatch.DiffInsert:
			prefix = "+"
		}
		for _, l := range strings.SplitAfter(d.Text, "\n") {
			if l == "" {
				continue
			}
			out.WriteString(prefix + l)
			if !strings.HasSuffix(l, "\n") {
				out.WriteString("\n")
			}
		}
	}
	return out.String()
}

func normalize(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n") + "\n"
}
