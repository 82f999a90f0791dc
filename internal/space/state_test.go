package space

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestStateParentOwnDirs: the spaces' state goes only in a directory of
// the user's own that no one else may write: a candidate another user
// could write in, or a link to a directory, is passed over (and left out
// of what a recovery searches), and the next candidate is taken.
func TestStateParentOwnDirs(t *testing.T) {
	base := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(base, "cache"))
	t.Setenv("HOME", filepath.Join(base, "home"))
	t.Setenv("TMPDIR", filepath.Join(base, "tmp"))
	work := filepath.Join(base, "work")
	cached := filepath.Join(base, "cache", "planx", "spaces")
	tmp := filepath.Join(base, "tmp", "planx-spaces")
	for _, d := range []string{work, filepath.Dir(cached), filepath.Join(base, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	want := func(what, dir string) {
		t.Helper()
		got, err := StateParent(work)
		if err != nil || got != dir {
			t.Fatalf("%s: StateParent = %q, %v; want %q", what, got, err, dir)
		}
		if in := slices.Contains(StateCandidates(), cached); in != (dir == cached) {
			t.Fatalf("%s: StateCandidates %v holds %s: %v", what, StateCandidates(), cached, in)
		}
	}
	// The honest case: made by planx, the user's own.
	want("made afresh", cached)
	if fi, err := os.Stat(cached); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("made with %v, %v; want 0700", fi.Mode().Perm(), err)
	}
	// Writable by others: not used, not searched.
	if err := os.Chmod(cached, 0o777); err != nil {
		t.Fatal(err)
	}
	want("mode 0777", tmp)
	// A link to a directory of the user's own: not used either (whoever
	// made the link chose where the layers go).
	if err := os.Remove(cached); err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(base, "elsewhere")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, cached); err != nil {
		t.Fatal(err)
	}
	want("a link", tmp)
	if err := os.Remove(cached); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		// Another user's, mode 0700: theirs to change.
		if err := os.Mkdir(cached, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(cached, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		want("another user's", tmp)
		if err := ownDir(cached); err == nil || !strings.Contains(err.Error(), "another user") {
			t.Fatalf("ownDir of another user's directory: %v", err)
		}
	}
}
