package space

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A hidden directory is empty and read-only in the space, and as it was
// outside it.
func TestHide(t *testing.T) {
	available(t)
	dir := t.TempDir()
	tree := newRepo(t, dir)
	secret := filepath.Join(dir, "hidden", "pkg")
	if err := os.MkdirAll(secret, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(secret, "sub_test.go"), []byte("func TestSecret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(Options{Root: tree, Dir: filepath.Join(dir, "state"), Hide: []string{filepath.Join(dir, "hidden")}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	hidden := filepath.Join(dir, "hidden")
	script := "ls -A " + hidden + "; cat " + hidden + "/pkg/sub_test.go; grep -r Secret " + hidden + "; echo x > " + hidden + "/new && echo wrote"
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = tree
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	_ = s.Run(context.Background(), cmd)
	if err := s.SetupError(); err != nil {
		t.Fatal(err)
	}
	if o := out.String(); strings.Contains(o, "Secret") || strings.Contains(o, "\npkg\n") || strings.HasPrefix(o, "pkg\n") || strings.Contains(o, "wrote") {
		t.Errorf("the hidden directory showed or took something in the space:\n%s", out.String())
	}
	if b, err := os.ReadFile(filepath.Join(secret, "sub_test.go")); err != nil || string(b) != "func TestSecret\n" {
		t.Errorf("the hidden file outside the space: %q, %v", b, err)
	}
	if _, err := Open(Options{Root: tree, Dir: filepath.Join(dir, "state2"), Hide: []string{filepath.Join(dir, "none")}}); err == nil {
		t.Errorf("a directory to hide that does not exist was taken")
	}
}
