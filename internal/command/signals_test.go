package command

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/planx-dev/planx/internal/command/scenarios"
	"github.com/planx-dev/planx/internal/gittest"
)

// A pre-commit hook that is slow and leaves a child behind holding git's
// output pipes must not make Ctrl-C or SIGTERM useless: planx terminates the
// hook and its children (never git itself, so git fails the commit and
// removes its index.lock), exits 130 within a bound, and the run is resumed
// to the same history as an uninterrupted one.
func TestInterruptDuringSlowHook(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for hooks")
	}
	gittest.Setenv(t)
	planx := planxBinary(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := gittest.Init(t)
			gittest.WriteFile(t, dir, "plan.md", "---\ntopic: hook\n---\n- [ ] T001 Add a\n  ```sh run\n  echo a > a.txt\n  ```\n")
			gittest.WriteFileMode(t, dir, ".git/hooks/pre-commit",
				"#!/bin/sh\n[ -f .git/hook-ok ] && exit 0\nsleep 300 &\necho $! > .git/hook-child.pid\nsleep 300\n", 0o755)
			cmd := exec.Command(planx, "run", "plan.md")
			cmd.Dir = dir
			var out strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if err := waitFile(filepath.Join(dir, ".git/hook-child.pid"), 20*time.Second); err != nil {
				_ = cmd.Process.Kill()
				t.Fatalf("%v\n%s", err, out.String())
			}
			time.Sleep(50 * time.Millisecond) // the pid file is written; the hook now sleeps
			start := time.Now()
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			var err error
			select {
			case err = <-done:
			case <-time.After(15 * time.Second):
				_ = cmd.Process.Kill()
				t.Fatalf("planx still running 15 s after %s:\n%s", sig, out.String())
			}
			took := time.Since(start)
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 130 {
				t.Fatalf("exit: %v, want 130\n%s", err, out.String())
			}
			if took > 10*time.Second {
				t.Fatalf("took %s to stop after %s", took, sig)
			}
			t.Logf("%s: planx exited 130 after %s", sig, took.Round(time.Millisecond))
			if _, err := os.Stat(filepath.Join(dir, ".git/index.lock")); err == nil {
				t.Fatal("stale .git/index.lock after the interrupt")
			}
			b, _ := os.ReadFile(filepath.Join(dir, ".git/hook-child.pid"))
			if pid, _ := strconv.Atoi(strings.TrimSpace(string(b))); pid > 0 && scenarios.Alive(pid) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("the hook's child %d outlived the interrupt", pid)
			}
			gittest.WriteFile(t, dir, ".git/hook-ok", "")
			res := exec.Command(planx, "resume")
			res.Dir = dir
			if o, err := res.CombinedOutput(); err != nil {
				t.Fatalf("resume: %v\n%s", err, o)
			}
			if got := gittest.Git(t, dir, "log", "--format=%s"); got != "T001: Add a\nrollback: before executing plan hook" {
				t.Fatalf("history after resume:\n%s", got)
			}
			if st := gittest.Git(t, dir, "status", "--porcelain"); st != "" {
				t.Fatalf("tree not clean after resume:\n%s", st)
			}
		})
	}
}
