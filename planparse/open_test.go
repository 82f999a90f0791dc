package planparse

import (
	"errors"
	"testing"
)

// CheckPath refuses control characters (C0, DEL, C1) anywhere in a plan
// path, and only them: spaces and letters beyond ASCII are a file name's.
func TestCheckPath(t *testing.T) {
	for path, bad := range map[string]bool{
		"memory-bank/plan/x.md": false,
		"plans/ma tâche.md":     false,
		"new\nline.md":          true,
		"tab\there.md":          true,
		"esc\x1b[31m.md":        true,
		"del\x7f.md":            true,
		"c1\u0085.md":           true,
	} {
		err := CheckPath(path)
		if bad != (err != nil) || (bad && !errors.Is(err, ErrUnreadable)) {
			t.Errorf("CheckPath(%q) = %v, want refused: %v", path, err, bad)
		}
	}
}
