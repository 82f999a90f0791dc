package command

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/planx-dev/planx/internal/gittest"
)

// lockPlan's one step says it started by the file started and waits until
// the test creates the file release, both outside the work tree (where no
// resume can mistake them for the step's output, and where a step in a
// task space writes through: its writes in the work tree reach it only
// when it ends), so the winner holds the run lock until every other
// contender has answered.
func lockPlan(started, release string) string {
	return "---\ntopic: lock\n---\n- [ ] T001 Wait\n  ```sh run\n  touch '" + started + "'\n" +
		"  while [ ! -f '" + release + "' ]; do sleep 0.02; done\n  echo a > a.txt\n  ```\n"
}

// TestLockStress starts several planx at once on one work tree, on a fresh
// repository and on one whose last planx was killed holding the lock:
// exactly one proceeds, every other exits 5 naming the holder. CI runs a few
// trials; PLANX_LOCK_TRIALS=50 runs the full measurement.
func TestLockStress(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many planx processes")
	}
	trials := 2
	if s := os.Getenv("PLANX_LOCK_TRIALS"); s != "" {
		var err error
		if trials, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	gittest.Setenv(t)
	planx := planxBinary(t)
	const contenders = 4
	for _, stale := range []bool{false, true} {
		ok := 0
		for i := 0; i < trials; i++ {
			if err := lockTrial(t, planx, contenders, stale); err != nil {
				t.Errorf("stale=%v trial %d: %v", stale, i+1, err)
				continue
			}
			ok++
		}
		t.Logf("stale lock=%v: exactly one of %d proceeded in %d/%d trials", stale, contenders, ok, trials)
	}
}

func lockTrial(t *testing.T, planx string, n int, stale bool) error {
	dir := gittest.Init(t)
	outside := t.TempDir()
	started, release := filepath.Join(outside, "started"), filepath.Join(outside, "release")
	gittest.WriteFile(t, dir, "plan.md", lockPlan(started, release))
	command := "run"
	if stale {
		// A planx killed outright while it holds the lock, its step still running.
		first := exec.Command(planx, "run", "plan.md")
		first.Dir = dir
		if err := first.Start(); err != nil {
			return err
		}
		if err := waitFile(started, 20*time.Second); err != nil {
			return err
		}
		_ = first.Process.Signal(syscall.SIGKILL)
		_ = first.Wait()
		_ = os.Remove(started)
		command = "resume"
	}
	type result struct {
		code int
		out  string
	}
	done := make(chan result, n)
	for i := 0; i < n; i++ {
		cmd := exec.Command(planx, command, "plan.md")
		if stale {
			cmd = exec.Command(planx, command)
		}
		cmd.Dir = dir
		go func() {
			out, err := cmd.CombinedOutput()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				code = -1
			}
			done <- result{code, string(out)}
		}()
	}
	var results []result
	deadline := time.After(30 * time.Second)
	for len(results) < n-1 {
		select {
		case r := <-done:
			results = append(results, r)
		case <-deadline:
			return fmt.Errorf("only %d of %d contenders answered", len(results), n-1)
		}
	}
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		return err
	}
	results = append(results, <-done)
	proceeded, refused := 0, 0
	for _, r := range results {
		switch {
		case r.code == 0:
			proceeded++
		case r.code == 5 && strings.Contains(r.out, "holds"):
			refused++
		default:
			return fmt.Errorf("a contender exited %d:\n%s", r.code, r.out)
		}
	}
	if proceeded != 1 || refused != n-1 {
		return fmt.Errorf("%d proceeded, %d refused, want 1 and %d", proceeded, refused, n-1)
	}
	log := gittest.Git(t, dir, "log", "--format=%s")
	if want := "T001: Wait\nrollback: before executing plan lock"; log != want {
		return fmt.Errorf("history:\n%s\nwant:\n%s", log, want)
	}
	return nil
}

func waitFile(p string, limit time.Duration) error {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(p); err == nil {
			return nil
		}
	}
	return fmt.Errorf("%s never appeared", p)
}
