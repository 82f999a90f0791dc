package planparse

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Tick returns src with t's checkbox set to 'x', changing that one byte and
// nothing else. It reports false, returning src unchanged, when t has no
// checkbox, the box is already ticked, or src no longer holds a box there.
func Tick(src []byte, t *Task) ([]byte, bool) {
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

// Hash is the hex SHA-256 of the task's normalised text: line endings made
// LF, trailing spaces trimmed and the checkbox state blanked, so that
// ticking a task or re-saving the file with CRLF does not count as drift.
func (t *Task) Hash() string {
	body := []byte(t.Body)
	if off := t.Checkbox - t.Start; t.Checkbox >= 0 && off >= 0 && off < len(body) {
		body = bytes.Clone(body)
		body[off] = ' '
	}
	lines := strings.Split(strings.ReplaceAll(string(body), "\r\n", "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	norm := strings.TrimRight(strings.Join(lines, "\n"), "\n")
	sum := sha256.Sum256([]byte(norm))
	return hex.EncodeToString(sum[:])
}
