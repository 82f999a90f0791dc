package space

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// A space over the work tree only: the program's writes in the work tree
// land in its layer, its writes elsewhere (and in the work tree's .git)
// reach the machine as they are
// (a fifo the user's script shares included), it sees only its own
// processes, and none of them outlives it.
func TestTreeOnly(t *testing.T) {
	available(t)
	tmp := t.TempDir()
	tree, outside := filepath.Join(tmp, "tree"), filepath.Join(tmp, "outside")
	for _, d := range []string{tree, filepath.Join(tree, ".git"), outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(tree, "a.txt"), []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := exec.Command("mkfifo", filepath.Join(outside, "fifo")).Run(); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if _, err := Open(Options{Root: tree, Dir: filepath.Join(tmp, "refused"), TreeOnly: true, Hide: []string{outside}}); err == nil {
		t.Error("Open took Hide with TreeOnly")
	}
	s, err := Open(Options{Root: tree, Dir: filepath.Join(tmp, "space"), TreeOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	token := "planx-space-treeonly-" + itoa(os.Getpid())
	script := `echo after > a.txt && echo new > b.txt && echo out > "$1/written" && echo git > .git/written &&
	echo through > "$1/fifo" &
	( setsid sleep 300 "$0" & ) ; ls /proc | grep -c '^[0-9]' > procs.txt; wait`
	reader := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(filepath.Join(outside, "fifo"))
		reader <- string(b)
	}()
	cmd := exec.Command("sh", "-c", script, token, outside)
	cmd.Dir = tree
	if err := s.Run(context.Background(), cmd); err != nil {
		t.Fatal(err)
	}
	if got := <-reader; got != "through\n" {
		t.Errorf("the fifo outside read %q", got)
	}
	if b, _ := os.ReadFile(filepath.Join(tree, "a.txt")); string(b) != "before\n" {
		t.Errorf("the real a.txt = %q, want it untouched", b)
	}
	if b, err := os.ReadFile(filepath.Join(tree, ".git", "written")); err != nil || string(b) != "git\n" {
		t.Errorf("the write in .git = %q, %v; want it in the real .git", b, err)
	}
	if b, err := os.ReadFile(filepath.Join(outside, "written")); err != nil || string(b) != "out\n" {
		t.Errorf("the write outside the work tree = %q, %v; want it on the machine", b, err)
	}
	cs, err := s.Changes()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cs.Written, []string{"a.txt", "b.txt", "procs.txt"}) || len(cs.Deleted) != 0 {
		t.Errorf("changes = %+v, want a.txt, b.txt, procs.txt written", cs)
	}
	if b, _ := os.ReadFile(filepath.Join(s.treeUpper(), "procs.txt")); strings.TrimSpace(string(b)) == "" || len(strings.TrimSpace(string(b))) > 1 {
		t.Errorf("the program saw %q processes in /proc, want its namespace's few", b)
	}
	if left := processesWith(token); len(left) > 0 {
		t.Errorf("processes left after the program: %q", left)
	}
	if ws, err := s.Outside(); err != nil || len(ws) != 0 {
		t.Errorf("Outside = %v, %v; want nothing (written through)", ws, err)
	}
}

// HoldsMounts sees a mount point beneath a directory (root only: the test
// mounts one).
func TestHoldsMounts(t *testing.T) {
	tree := t.TempDir()
	sub := filepath.Join(tree, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if HoldsMounts(tree) {
		t.Fatal("HoldsMounts of a plain directory")
	}
	if err := unix.Mount("tmpfs", sub, "tmpfs", 0, "size=4k"); err != nil {
		t.Skipf("mount a tmpfs: %v", err)
	}
	defer unix.Unmount(sub, unix.MNT_DETACH)
	if !HoldsMounts(tree) {
		t.Error("HoldsMounts missed the tmpfs beneath the directory")
	}
	if HoldsMounts(sub) {
		t.Error("HoldsMounts counted the directory's own mount")
	}
}
