package command

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// twoRunsPlan has tasks that take a while and a gate, so that each run
// writes its refs, notes and records while the other's steps run.
const twoRunsPlan = "---\ntopic: two\ngates:\n  - name: check\n    command: sleep 0.1\n---\n" +
	"- [ ] T001 Add a\n  ```sh run\n  sleep 0.2; echo a > a.txt\n  ```\n" +
	"- [ ] T002 Add b\n  ```sh run\n  sleep 0.2; echo b > b.txt\n  ```\n" +
	"- [ ] T003 Add c\n  ```sh run\n  sleep 0.2; echo c > c.txt\n  ```\n"

// TestTwoWorktreesAtOnce starts two runs at once in two linked work trees of
// one repository, again and again: neither may take the other's writes to
// the common git directory for its task's, and both end with their three
// task commits. PLANX_WORKTREE_TRIALS sets the count.
func TestTwoWorktreesAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many planx processes")
	}
	trials := 3
	if s := os.Getenv("PLANX_WORKTREE_TRIALS"); s != "" {
		var err error
		if trials, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	gittest.Setenv(t)
	planx := planxBinary(t)
	ok := 0
	for i := 0; i < trials; i++ {
		if err := twoRunsTrial(t, planx); err != nil {
			t.Errorf("trial %d: %v", i+1, err)
			continue
		}
		ok++
	}
	t.Logf("both runs committed every task in %d/%d trials", ok, trials)
}

func twoRunsTrial(t *testing.T, planx string) error {
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "init")
	var wts []string
	for _, b := range []string{"a", "b"} {
		wt := filepath.Join(t.TempDir(), b)
		gittest.Git(t, dir, "worktree", "add", "-q", wt, "-b", b)
		gittest.WriteFile(t, wt, "plan.md", twoRunsPlan)
		wts = append(wts, wt)
	}
	errs := make([]error, len(wts))
	var wg sync.WaitGroup
	for i, wt := range wts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(planx, "run", "plan.md")
			cmd.Dir = wt
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[i] = fmt.Errorf("%s: %v\n%s", filepath.Base(wt), err, out)
			}
		}()
	}
	wg.Wait()
	for i, wt := range wts {
		if errs[i] != nil {
			return errs[i]
		}
		subjects := gittest.Git(t, wt, "log", "--format=%s", "-4")
		if !strings.Contains(subjects, "T001: Add a") || !strings.Contains(subjects, "T003: Add c") {
			return fmt.Errorf("%s: log %q", filepath.Base(wt), subjects)
		}
		// Each task commit has its gate note: neither run's note write
		// lost the other's.
		for _, rev := range []string{"HEAD", "HEAD~1", "HEAD~2"} {
			if _, err := gittest.TryGit(wt, "", "notes", "--ref=planx", "show", rev); err != nil {
				return fmt.Errorf("%s: no gate note on %s: %v", filepath.Base(wt), rev, err)
			}
		}
	}
	return nil
}
