package space

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// StateCandidates are the directories spaces' state (their layers) may go
// in, in order of preference: the user's cache directory, the temporary
// one, /var/tmp, /tmp (StateParent picks the first outside the work tree).
// A recovery after a crash looks for a run's spaces in each. A candidate
// that exists but is not the user's own (ownDir) is left out: the shared
// temporary directories let any user make /tmp/planx-spaces first, and
// whoever may write in it could change a layer before planx takes it into
// the work tree, or plant a space a recovery would take in.
func StateCandidates() []string {
	var cands []string
	if c, err := os.UserCacheDir(); err == nil {
		cands = append(cands, filepath.Join(c, "planx", "spaces"))
	}
	cands = append(cands, filepath.Join(os.TempDir(), "planx-spaces"), "/var/tmp/planx-spaces", "/tmp/planx-spaces")
	return slices.DeleteFunc(cands, func(c string) bool {
		_, err := os.Lstat(c)
		return err == nil && ownDir(c) != nil
	})
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
	var refused []string
	for _, c := range StateCandidates() {
		if within(c, abs) || within(c, dir) {
			continue
		}
		if err := os.MkdirAll(c, 0o700); err != nil {
			refused = append(refused, err.Error())
			continue
		}
		// Checked again once made: another user may have made it between
		// StateCandidates' look and MkdirAll.
		if err := ownDir(c); err != nil {
			refused = append(refused, err.Error())
			continue
		}
		return c, nil
	}
	msg := fmt.Sprintf("no directory for its layers outside the work tree %s", dir)
	if len(refused) > 0 {
		msg += " (" + strings.Join(refused, "; ") + ")"
	}
	return "", errors.New(msg)
}

// ownDir says why dir is no place for spaces' state, nil when it is: a
// directory (not a symbolic link to one) that this user owns and that no
// one else may write in.
func ownDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	if uid, ok := owner(fi); ok && uid != os.Geteuid() {
		return fmt.Errorf("%s belongs to another user (uid %d)", dir, uid)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%s may be written by other users (mode %v)", dir, fi.Mode().Perm())
	}
	return nil
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
