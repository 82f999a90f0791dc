package space

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Directories removed and made again (opaque in the layer), a file
// replaced by a directory, a rename, a file only touched: Changes is the
// net change.
func TestChangesNet(t *testing.T) {
	available(t)
	tmp := t.TempDir()
	tree := newRepo(t, tmp)
	s, err := Open(Options{Root: tree, Dir: filepath.Join(tmp, "space")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	script := `set -e
rm -r keep && mkdir keep && echo n > keep/n.txt
rm gone.txt && mkdir gone.txt && echo x > gone.txt/x
mv script.sh renamed.sh
touch a.txt && chmod 644 a.txt
mkdir -p empty/dir`
	var out bytes.Buffer
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir, cmd.Stdout, cmd.Stderr = tree, &out, &out
	if err := s.Run(context.Background(), cmd); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	cs, err := s.Changes()
	if err != nil {
		t.Fatal(err)
	}
	wantW := []string{"gone.txt/x", "keep/n.txt", "renamed.sh"}
	wantD := []string{"gone.txt", "keep/k.txt", "script.sh"}
	if !slices.Equal(cs.Written, wantW) || !slices.Equal(cs.Deleted, wantD) {
		t.Errorf("Changes = written %q deleted %q; want %q, %q", cs.Written, cs.Deleted, wantW, wantD)
	}
	if !opaque(filepath.Join(s.treeUpper(), "keep")) {
		t.Error("keep, removed and made again, is not opaque in the layer")
	}
	cp := filepath.Join(tmp, "copy")
	run(t, tmp, "git", "clone", "-q", tree, cp)
	if err := s.Apply(cp); err != nil {
		t.Fatal(err)
	}
	var inside bytes.Buffer
	l := exec.Command("sh", "-c", listing)
	l.Dir, l.Stdout, l.Stderr = tree, &inside, &inside
	if err := s.Run(context.Background(), l); err != nil {
		t.Fatal(err)
	}
	if got := run(t, cp, "sh", "-c", listing); got != inside.String() {
		t.Errorf("after Apply:\n%s\nthe space shows:\n%s", got, inside.String())
	}
}

// Programs open pseudo-terminals, make user namespaces of their own (as
// Codex's bubblewrap does) and talk to a server on the loopback.
func TestTerminalsNestedLoopback(t *testing.T) {
	available(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan string, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- err.Error()
			return
		}
		defer c.Close()
		line, _ := bufio.NewReader(c).ReadString('\n')
		got <- line
		c.Write([]byte("pong\n"))
	}()
	port := ln.Addr().(*net.TCPAddr).Port

	tmp := t.TempDir()
	tree := filepath.Join(tmp, "tree")
	if err := os.Mkdir(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := Open(Options{Root: tree, Dir: filepath.Join(tmp, "space")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checks := map[string]string{
		"script (a pty)":          "script -qc 'tty' /dev/null",
		"python pty.openpty":      `python3 -c 'import os, pty; m, s = pty.openpty(); print(os.ttyname(s))'`,
		"unshare -Ur":             "unshare -Ur id -u",
		"bubblewrap-like":         "unshare -Urmpf --mount-proc sh -c 'echo $$; mount -t tmpfs none /mnt && echo mounted'",
		"loopback to the outside": "exec 3<>/dev/tcp/127.0.0.1/" + itoa(port) + "; echo ping >&3; read -r l <&3; echo $l",
		"pid 1 is the helper":     "cat /proc/1/cmdline | tr '\\0' ' '",
	}
	want := map[string]string{
		"script (a pty)":          "/dev/pts/",
		"python pty.openpty":      "/dev/pts/",
		"unshare -Ur":             "0",
		"bubblewrap-like":         "1\nmounted",
		"loopback to the outside": "pong",
		"pid 1 is the helper":     HelperArg,
	}
	if os.Geteuid() != 0 {
		// the helper's capabilities are not the program's
		checks["no capabilities"] = "grep CapEff /proc/self/status"
		want["no capabilities"] = "0000000000000000"
	}
	for name, script := range checks {
		var out bytes.Buffer
		cmd := exec.Command("bash", "-c", script)
		cmd.Dir, cmd.Stdout, cmd.Stderr = tree, &out, &out
		err := s.Run(context.Background(), cmd)
		if err != nil || !strings.Contains(out.String(), want[name]) {
			t.Errorf("%s: %v: %q (want %q)", name, err, out.String(), want[name])
		} else {
			t.Logf("%s: %q", name, strings.TrimSpace(out.String()))
		}
	}
	select {
	case line := <-got:
		if line != "ping\n" {
			t.Errorf("the server outside read %q", line)
		}
	case <-time.After(10 * time.Second):
		t.Error("the server outside got no connection")
	}
}

// Cancelling Run kills the program and everything it started, detached
// or not.
func TestCancelKillsAll(t *testing.T) {
	available(t)
	tmp := t.TempDir()
	tree := filepath.Join(tmp, "tree")
	if err := os.Mkdir(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := Open(Options{Root: tree, Dir: filepath.Join(tmp, "space")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	token := "planx-space-cancel-" + itoa(os.Getpid())
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.Command("sh", "-c", `( setsid sleep 300 "$0" & ); echo started > started; sleep 300`, token)
	cmd.Dir = tree
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, cmd) }()
	for i := 0; ; i++ {
		if _, err := os.Stat(filepath.Join(s.treeUpper(), "started")); err == nil {
			break
		}
		if i > 600 {
			t.Fatal("the program did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if err == nil {
			t.Error("Run of a cancelled program returned nil")
		}
		t.Logf("Run: %v", err)
	case <-time.After(60 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
	if left := processesWith(token); len(left) > 0 {
		t.Errorf("processes left after cancel: %q", left)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// In a linked work tree (a wave's slot) .git is a file: the commits the
// program makes land in the layer of the common git directory, outside
// the work tree, where UpperOf finds them.
func TestLinkedWorkTree(t *testing.T) {
	available(t)
	tmp := t.TempDir()
	repo := newRepo(t, tmp)
	slot := filepath.Join(tmp, "slot")
	run(t, repo, "git", "worktree", "add", "-q", "-b", "slot", slot)
	s, err := Open(Options{Root: slot, Dir: filepath.Join(tmp, "space")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var out bytes.Buffer
	cmd := exec.Command("sh", "-c", "echo x >> a.txt && git commit -qam 'in the slot' && git rev-parse HEAD")
	cmd.Dir, cmd.Stdout, cmd.Stderr = slot, &out, &out
	cmd.Env = append(os.Environ(), gitEnv...)
	if err := s.Run(context.Background(), cmd); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	head := strings.TrimSpace(out.String())
	cs, err := s.Changes()
	if err != nil || !slices.Equal(cs.Written, []string{"a.txt"}) || len(cs.Deleted) != 0 {
		t.Errorf("Changes = %+v, %v", cs, err)
	}
	gcs, err := s.GitChanges()
	if err != nil || !gcs.Empty() {
		t.Errorf("GitChanges of a slot whose .git file is untouched = %+v, %v", gcs, err)
	}
	ref, ok := s.UpperOf(filepath.Join(repo, ".git", "refs", "heads", "slot"))
	if !ok {
		t.Fatal("UpperOf the common git directory: no layer")
	}
	if b, err := os.ReadFile(ref); err != nil || strings.TrimSpace(string(b)) != head {
		t.Errorf("the slot's branch in the layer: %q, %v; want %s", b, err, head)
	}
	if got := strings.TrimSpace(run(t, repo, "git", "rev-parse", "slot")); got == head {
		t.Error("the commit reached the real repository")
	}
}

// Two spaces run at once (a wave's agents): each sees its own writes to
// the same path, the exit code is the program's, and the state directory
// is an empty directory inside.
func TestTwoSpacesAtOnce(t *testing.T) {
	available(t)
	tmp := t.TempDir()
	shared := "/tmp/planx-space-shared-" + strconv.Itoa(os.Getpid())
	errs := make(chan error, 2)
	for i := range 2 {
		go func() {
			tree := filepath.Join(tmp, "tree"+strconv.Itoa(i))
			state := filepath.Join(tmp, "space"+strconv.Itoa(i))
			if err := os.Mkdir(tree, 0o755); err != nil {
				errs <- err
				return
			}
			s, err := Open(Options{Root: tree, Dir: state})
			if err != nil {
				errs <- err
				return
			}
			defer s.Close()
			script := `echo "$1" > "$2"; sleep 1; test "$(cat "$2")" = "$1" || exit 3; test -z "$(ls -A "$3")" || exit 4; exit 7`
			var out bytes.Buffer
			cmd := exec.Command("sh", "-c", script, "sh", "space"+strconv.Itoa(i), shared, state)
			cmd.Stdout, cmd.Stderr = &out, &out
			err = s.Run(context.Background(), cmd)
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 7 {
				errs <- fmt.Errorf("space %d: %v (want exit 7): %s", i, err, out.String())
				return
			}
			errs <- nil
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Lstat(shared); err == nil {
		t.Errorf("%s was written outside", shared)
	}
}

func TestProgramNotFound(t *testing.T) {
	available(t)
	tmp := t.TempDir()
	s, err := Open(Options{Root: tmp, Dir: filepath.Join(t.TempDir(), "space")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cmd := exec.Command("/no/such/program")
	var ee *exec.ExitError
	if err := s.Run(context.Background(), cmd); !errors.As(err, &ee) || ee.ExitCode() != 127 {
		t.Errorf("Run of a missing program: %v (want exit 127)", err)
	}
	if _, err := Open(Options{Root: tmp, Dir: filepath.Join(tmp, "inside")}); err == nil {
		t.Error("Open accepted a state directory inside the work tree")
	}
	if _, err := os.Stat(filepath.Join(tmp, "inside")); err == nil {
		t.Error("Open made a directory in the work tree")
	}
}
