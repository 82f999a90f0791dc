package command

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/planx-dev/planx/internal/fault"
	"github.com/planx-dev/planx/internal/gittest"
)

// crashPlan's first task is slow and appends, so that running it twice, or
// committing a half-run step, shows in the final tree; its gate is slow for
// T001 only (the tree without b.txt: a gate sees no PLANX_TASK_ID), so a
// kill can land inside it.
const crashPlan = `---
topic: crash
gates:
  - name: check
    command: if [ ! -e b.txt ]; then sleep 0.4; fi; test -f a.txt
---
- [ ] T001 Slow append
  ` + "```sh run" + `
  echo start >> a.txt
  sleep 0.4
  echo end >> a.txt
  ` + "```" + `
- [ ] T002 Add b
  ` + "```sh run" + `
  echo b > b.txt
  ` + "```" + `
- [ ] T003 Add c
  ` + "```sh run" + `
  mkdir -p sub && echo c > sub/c.txt
  ` + "```" + `
`

// TestKillAtEveryPoint kills planx with SIGKILL at every fault point, resumes,
// and compares the result with an uninterrupted run: the same commits in the
// same order, exactly one per task, the same files, a clean tree and fsck.
func TestKillAtEveryPoint(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and resumes planx once per fault point")
	}
	t.Parallel()
	planx := planxBinary(t)
	// Both commit paths: git commit (what small repositories get) and
	// plumbing with the plan and the log spliced into the tree (large ones).
	for _, path := range []struct{ name, smallIndex string }{{"git-commit", ""}, {"plumbing", "0"}} {
		t.Run(path.name, func(t *testing.T) {
			env := gittest.EnvironHome(t.TempDir())
			if path.smallIndex != "" {
				env = append(env, "PLANX_SMALL_INDEX="+path.smallIndex)
			}
			want, _ := crashRun(t, crash{env: env, planx: planx, plan: crashPlan, jobs: "1"})
			for _, point := range fault.Points() {
				t.Run(point, func(t *testing.T) {
					got, _ := crashRun(t, crash{env: env, planx: planx, plan: crashPlan, jobs: "1", point: point})
					if got != want {
						t.Fatalf("after a kill at %s and resume:\n%s\nuninterrupted run:\n%s", point, got, want)
					}
				})
			}
		})
	}
}

// waitForGit waits for a git that outlived the killed planx (a commit in
// progress) to release the index, as a person would before resuming.
func waitForGit(t *testing.T, dir string) {
	lock := filepath.Join(dir, ".git", "index.lock")
	for i := 0; i < 100; i++ {
		if _, err := os.Stat(lock); os.IsNotExist(err) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("index.lock still held")
}

// withEnv is env and more, in a new slice (env is shared by subtests).
func withEnv(env []string, more ...string) []string {
	return append(slices.Clip(env), more...)
}

// planxBinary returns a path that runs this test binary as planx (see TestMain).
func planxBinary(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "planx")
	if err := os.Symlink(self, link); err != nil {
		t.Fatal(err)
	}
	return link
}

// SIGTERM (and SIGINT) stop the step's process group, record the run as
// interrupted and exit 130; resume then finishes the plan.
func TestSIGTERMExits130(t *testing.T) {
	gittest.Setenv(t)
	planx := planxBinary(t)
	dir := gittest.Init(t)
	// The step says it started outside the work tree: it runs in a task
	// space over it, whose writes reach it when the steps end.
	gittest.WriteFile(t, dir, "plan.md", "---\ntopic: term\n---\n- [ ] T001 Slow\n  ```sh run\n  echo start > a.txt\n  touch \"$TMPDIR/started\"\n  sleep 30\n  ```\n")
	sync := t.TempDir()
	cmd := exec.Command(planx, "run", "plan.md")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMPDIR="+sync)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		if _, err := os.Stat(filepath.Join(sync, "started")); err == nil {
			break
		}
		if i > 200 {
			t.Fatalf("step never started:\n%s", out.String())
		}
		time.Sleep(25 * time.Millisecond)
	}
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("exit: %v, want 130\n%s", err, out.String())
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %s to stop: the sleep was not killed", d)
	}
	if !strings.Contains(out.String(), "interrupted") {
		t.Fatalf("no 'interrupted' in the output:\n%s", out.String())
	}
	st := exec.Command(planx, "status")
	st.Dir = dir
	so, _ := st.CombinedOutput()
	if !strings.Contains(string(so), "T001  interrupted") {
		t.Fatalf("status after SIGTERM:\n%s", so)
	}
}

// crash is one run of the crash harness: plan run with --jobs jobs by the
// binary planx, killed with SIGKILL at the fault point (none: ""), then
// resumed; each planx gets env, the test's hermetic environment (nothing is
// set in the test's own process, so the crash tests run beside each other).
type crash struct {
	env               []string
	planx, plan, jobs string
	point             string
}

// crashRun runs c until the plan is done and returns a summary of the
// outcome to compare with an uninterrupted run's (the commits in order,
// every file of HEAD but the log, whose times and run id differ by nature)
// and what the plan's steps noted in runs.log next to the repository (a
// task run again after the kill shows there). The tree must be clean, no
// slot left and fsck content.
func crashRun(t *testing.T, c crash) (outcome, runs string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "init", "-q", "-b", "main")
	gittest.WriteFile(t, dir, "plan.md", c.plan)
	gittest.WriteFile(t, dir, "wip.txt", "uncommitted work before the run\n")
	if c.point == "during-commit" {
		// Make git commit slow enough for the kill to land inside it.
		gittest.WriteFileMode(t, dir, ".git/hooks/pre-commit", "#!/bin/sh\nsleep 0.3\n", 0o755)
	}
	cmd := exec.Command(c.planx, "run", "--jobs", c.jobs, "plan.md")
	cmd.Dir = dir
	cmd.Env = withEnv(c.env, "PLANX_FAULT="+c.point)
	out, err := cmd.CombinedOutput()
	if c.point == "" {
		if err != nil {
			t.Fatalf("uninterrupted run: %v\n%s", err, out)
		}
	} else {
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("planx was not killed at %s: %v\n%s", c.point, err, out)
		}
		waitForGit(t, dir)
		res := exec.Command(c.planx, "resume")
		res.Dir = dir
		res.Env = c.env
		if out, err := res.CombinedOutput(); err != nil {
			t.Fatalf("resume after a kill at %s: %v\n%s", c.point, err, out)
		}
	}
	if st := gittest.Git(t, dir, "status", "--porcelain"); st != "" {
		t.Fatalf("tree not clean:\n%s", st)
	}
	if wt := gittest.Git(t, dir, "worktree", "list"); strings.Contains(wt, "planx/worktrees") {
		t.Fatalf("work trees left after the run:\n%s", wt)
	}
	gittest.Git(t, dir, "fsck", "--strict", "--no-progress")
	var b strings.Builder
	b.WriteString(gittest.Git(t, dir, "log", "--format=%s") + "\n")
	for _, line := range strings.Split(gittest.Git(t, dir, "ls-tree", "-r", "HEAD"), "\n") {
		if !strings.Contains(line, "memory-bank/execute/") {
			b.WriteString(line + "\n")
		}
	}
	b.WriteString(gittest.Git(t, dir, "show", "HEAD:a.txt") + "\n")
	noted, _ := os.ReadFile(filepath.Join(dir, "..", "runs.log"))
	return b.String(), string(noted)
}
