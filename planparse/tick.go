package planparse

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
)

// Tick returns src with t's checkbox set to 'x', changing that one byte and
// nothing else; a task of task-master's tasks.json gets "status": "done"
// instead, that one value replaced. It reports false, returning src
// unchanged, when t has no checkbox (or status), the box is already ticked
// (the status done), or src no longer holds a box there.
func Tick(src []byte, t *Task) ([]byte, bool) {
	if t != nil && t.fromJSON {
		return tickJSON(src, t)
	}
	if t == nil || t.Checkbox < 1 || t.Checkbox+1 >= len(src) {
		return src, false
	}
	c := t.Checkbox
	if src[c-1] != '[' || src[c+1] != ']' || src[c] == 'x' || src[c] == 'X' {
		return src, false
	}
	out := bytes.Clone(src)
	out[c] = 'x'
	return out, true
}

// boxRe finds a checkbox at the start of a list item or heading line.
var boxRe = regexp.MustCompile(`(?m)^([ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+|#{1,6}[ \t]+))\[[xX\-]\]`)

// Hash is the hex SHA-256 of the task's normalised text: line endings made
// LF, trailing spaces trimmed and every checkbox in it blanked, so that
// ticking a task (or a criterion inside it) or re-saving the file with CRLF
// does not count as drift. A tasks.json task's status values are blanked
// likewise.
func (t *Task) Hash() string {
	body := t.Body
	if t.fromJSON {
		body = jsonHashText(body)
	}
	return hashText(body)
}

// HashMatches reports whether a Planx-Task-Hash value ("sha256:…") is this
// task's text. A tasks.json task also matches the hash planx wrote before
// its statuses were left out of it (they are planx's to set now): a plan
// run then is not drift now.
func (t *Task) HashMatches(trailer string) bool {
	return trailer == "sha256:"+t.Hash() || (t.fromJSON && trailer == "sha256:"+hashText(t.Body))
}

func hashText(body string) string {
	body = strings.ReplaceAll(body, "\r\n", "\n")
	body = boxRe.ReplaceAllString(body, "${1}[ ]")
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	norm := strings.TrimRight(strings.Join(lines, "\n"), "\n")
	sum := sha256.Sum256([]byte(norm))
	return hex.EncodeToString(sum[:])
}
