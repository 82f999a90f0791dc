package space

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAt: a directory seen elsewhere (the judge's checkout) is written
// through at its new place, tools searching parent directories from there
// find nothing of the tree that holds it, and writes anywhere else —
// through its own path or the directories above it — reach nothing.
func TestAt(t *testing.T) {
	available(t)
	dir := t.TempDir()
	tree := newRepo(t, dir)
	checkout := filepath.Join(tree, ".git", "planx", "slots", "slot1")
	if err := os.MkdirAll(checkout, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(checkout, "in.txt"), []byte("in\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A file above the checkout, as one left in the user's work tree.
	if err := os.WriteFile(filepath.Join(tree, "above.txt"), []byte("above\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := fingerprint(t, tree)
	at := "/planx-judge-test/repo"
	s, err := Open(Options{Root: checkout, Dir: filepath.Join(dir, "state"), At: at})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	script := `pwd; echo "$PWD"; cat in.txt; ls -a ..; ls ../../above.txt 2>&1 || true
echo made > out.txt
echo lost > ` + filepath.Join(tree, "above.txt") + `
echo lost > ` + filepath.Join(checkout, "via-own-path.txt") + `
echo lost > ` + filepath.Join(tree, "new.txt")
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = checkout
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := s.Run(context.Background(), cmd); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Logf("in the space:\n%s", out.String())
	lines := strings.Split(out.String(), "\n")
	if lines[0] != at || lines[1] != at || lines[2] != "in" {
		t.Errorf("the program's working directory and view:\n%s\nwant %s twice, then in.txt's content", out.String(), at)
	}
	if !strings.Contains(out.String(), "above.txt': No such file") || strings.Count(out.String(), "\n") != 7 {
		t.Errorf("a file above the checkout is found from it:\n%s", out.String())
	}
	b, err := os.ReadFile(filepath.Join(checkout, "out.txt"))
	if err != nil || string(b) != "made\n" {
		t.Errorf("a write at the new place did not reach the checkout: %q, %v", b, err)
	}
	_ = os.Remove(filepath.Join(checkout, "out.txt"))
	after := fingerprint(t, tree)
	for p, st := range after {
		if before[p] != st {
			t.Errorf("%s changed: %s -> %s", p, before[p], st)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("%s is gone", p)
		}
	}
	if _, err := os.Lstat(at); err == nil {
		t.Errorf("%s was made on the machine", at)
	}
}

// TestAtRefused: At must be a clean absolute path that the machine does
// not have.
func TestAtRefused(t *testing.T) {
	dir := t.TempDir()
	for _, at := range []string{"relative/x", "/", "/tmp", "/a/../b"} {
		if _, err := Open(Options{Root: dir, Dir: filepath.Join(t.TempDir(), "s"), At: at}); err == nil {
			t.Errorf("At %q accepted", at)
		}
	}
}
