package space

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// StateCandidates are the directories spaces' state (their layers) may go
// in, in order of preference: the user's cache directory, the temporary
// one, /var/tmp, /tmp (StateParent picks the first outside the work tree).
// A recovery after a crash looks for a run's spaces in each.
func StateCandidates() []string {
	var cands []string
	if c, err := os.UserCacheDir(); err == nil {
		cands = append(cands, filepath.Join(c, "planx", "spaces"))
	}
	return append(cands, filepath.Join(os.TempDir(), "planx-spaces"), "/var/tmp/planx-spaces", "/tmp/planx-spaces")
}

// StateParent is where the state of spaces over the work tree dir goes:
// the first of StateCandidates that is not inside it (a layer must not
// be), made if missing.
func StateParent(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	for _, c := range StateCandidates() {
		if within(c, abs) || within(c, dir) {
			continue
		}
		if err := os.MkdirAll(c, 0o700); err == nil {
			return c, nil
		}
	}
	return "", fmt.Errorf("no directory for its layers outside the work tree %s", dir)
}

// RemoveAll removes p like os.RemoveAll, first making its directories
// writable: a space's layer holds what a program made read-only (the Go
// module cache) and the kernel's overlay work directories (mode 0).
// WalkDir calls the function on a directory before it reads it.
func RemoveAll(p string) error {
	if err := os.RemoveAll(p); err == nil {
		return nil
	}
	_ = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(q, 0o700)
		}
		return nil
	})
	return os.RemoveAll(p)
}
