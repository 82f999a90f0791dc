package command

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/planx-dev/planx/internal/gittest"
)

// soakPlan: three tasks whose steps append (a step run twice, or a half-run
// step committed, shows in the tree), a gate, and slow hooks installed by
// soakRepo, so that signals land in steps, gates, hooks and commits.
const soakPlan = "---\ntopic: soak\ngates:\n  - name: check\n    command: sleep 0.1; test -f a.txt\n---\n" +
	"- [ ] T001 Append a\n  ```sh run\n  echo start >> a.txt\n  sleep 0.2\n  echo end >> a.txt\n  ```\n" +
	"- [ ] T002 Add b\n  ```sh run\n  echo b >> b.txt\n  ```\n" +
	"- [ ] T003 Add c\n  ```sh run\n  mkdir -p sub && echo c >> sub/c.txt\n  ```\n"

// soakWavePlan runs under --jobs 3: after T001, a wave of three parallel
// tasks in slot work trees, one of them slow, so that signals land in a
// wave, its merge and its commits too.
const soakWavePlan = "---\ntopic: soak\ngates:\n  - name: check\n    command: sleep 0.1; test -f a.txt\n---\n" +
	"- [ ] T001 Append a\n  ```sh run\n  echo start >> a.txt\n  sleep 0.2\n  echo end >> a.txt\n  ```\n" +
	"- [ ] T002 [P] Add b\n  ```sh run\n  echo b >> b.txt\n  sleep 0.3\n  ```\n" +
	"- [ ] T003 [P] Add c\n  ```sh run\n  mkdir -p sub && echo c >> sub/c.txt\n  ```\n" +
	"- [ ] T004 [P] Add d\n  ```sh run\n  echo d >> d.txt\n  sleep 0.1\n  ```\n"

// soakModes are the two ways a trial runs: plan text and run arguments.
var soakModes = []struct {
	name, plan string
	args       []string
}{{"serial", soakPlan, []string{"run", "plan.md"}}, {"wave", soakWavePlan, []string{"run", "--jobs", "3", "plan.md"}}}

// TestSoak interrupts planx at random moments with SIGINT, SIGTERM or SIGKILL,
// then resumes or aborts, for as long as PLANX_SOAK says (e.g. 60s), and
// counts: resumes identical to an uninterrupted run, aborts identical to the
// pre-run state (HEAD, index entries, file bytes, status), stale git lock
// files, lost bytes. Any miss fails the test; the counts are logged.
func TestSoak(t *testing.T) {
	budget, err := time.ParseDuration(os.Getenv("PLANX_SOAK"))
	if err != nil || budget <= 0 {
		t.Skip("set PLANX_SOAK=60s to run the random-interrupt soak")
	}
	gittest.Setenv(t)
	planx := planxBinary(t)
	want := map[string]string{}
	for _, path := range []string{"", "0"} {
		for _, mode := range soakModes {
			t.Setenv("PLANX_SMALL_INDEX", path)
			dir, _ := soakRepo(t, mode.plan)
			if out, err := planxIn(planx, dir, mode.args...); err != nil {
				t.Fatalf("uninterrupted %s run: %v\n%s", mode.name, err, out)
			}
			want[path+mode.name] = soakOutcome(t, dir)
		}
	}
	var c soakCounts
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 11))
	for end := time.Now().Add(budget); time.Now().Before(end); {
		path := []string{"", "0"}[rng.IntN(2)]
		mode := soakModes[rng.IntN(len(soakModes))]
		t.Setenv("PLANX_SMALL_INDEX", path)
		if msg := soakOnce(t, planx, rng, mode.plan, mode.args, want[path+mode.name], &c); msg != "" {
			c.failures = append(c.failures, mode.name+": "+msg)
		}
		c.modes[mode.name]++
	}
	t.Logf("soak %s: %d interrupted (serial %d, --jobs 3 %d; INT %d, TERM %d, KILL %d; %d finished before the signal); "+
		"resumes %d/%d identical to an uninterrupted run; aborts %d/%d identical to the pre-run state (index marks included); "+
		"stale git locks (index.lock, ref locks) %d; planx work trees left registered %d; lost bytes %d",
		budget, c.runs, c.modes["serial"], c.modes["wave"], c.sig[syscall.SIGINT], c.sig[syscall.SIGTERM], c.sig[syscall.SIGKILL], c.early,
		c.resumeOK, c.resumes, c.abortOK, c.aborts, c.staleLock, c.worktrees, c.lost)
	for _, f := range c.failures {
		t.Error(f)
	}
}

type soakCounts struct {
	runs, early, resumes, resumeOK, aborts, abortOK, staleLock, worktrees, lost int
	sig                                                                         map[syscall.Signal]int
	modes                                                                       map[string]int
	failures                                                                    []string
}

// soakOnce is one trial; it returns what went wrong, or "".
func soakOnce(t *testing.T, planx string, rng *rand.Rand, plan string, args []string, want string, c *soakCounts) string {
	dir, before := soakRepo(t, plan)
	sig := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL}[rng.IntN(3)]
	cmd := exec.Command(planx, args...)
	cmd.Dir = dir
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return err.Error()
	}
	time.Sleep(time.Duration(rng.IntN(2500)) * time.Millisecond)
	_ = cmd.Process.Signal(sig)
	err := cmd.Wait()
	c.runs++
	if c.sig == nil {
		c.sig, c.modes = map[syscall.Signal]int{}, map[string]int{}
	}
	c.sig[sig]++
	if err == nil {
		c.early++
		return ""
	}
	locks := gitLocks(dir)
	if sig == syscall.SIGKILL {
		// A git commit in flight outlives a killed planx; it finishes.
		for i := 0; i < 200 && len(locks) > 0; i++ {
			time.Sleep(25 * time.Millisecond)
			locks = gitLocks(dir)
		}
	}
	if len(locks) > 0 {
		c.staleLock++
		return fmt.Sprintf("%s: stale %s after the run exited (%v)\n%s", sig, strings.Join(locks, ", "), err, out.String())
	}
	// A signal before the run recorded anything stops it with nothing to
	// resume or abort: then nothing may have changed either.
	started := exists(filepath.Join(dir, ".git", "planx", "state.json"))
	if !started {
		if got := preRunState(t, dir); got != before {
			c.lost++
			return fmt.Sprintf("%s before the run started changed the repository:\n%s\nwant\n%s", sig, got, before)
		}
	}
	if rng.IntN(2) == 0 {
		c.resumes++
		again := []string{"resume"}
		if !started {
			again = args
		}
		if o, err := planxIn(planx, dir, again...); err != nil {
			return fmt.Sprintf("%s then resume: %v\n%s\n%s", sig, err, out.String(), o)
		}
		if got := soakOutcome(t, dir); got != want {
			c.lost++
			return fmt.Sprintf("%s then resume: outcome\n%s\nwant\n%s\nrun output:\n%s", sig, got, want, out.String())
		}
		if wts := planxWorktrees(t, dir); wts != "" {
			c.worktrees++
			return fmt.Sprintf("%s then resume: planx work trees left registered:\n%s", sig, wts)
		}
		c.resumeOK++
		return ""
	}
	c.aborts++
	if !started {
		c.abortOK++
		return ""
	}
	if o, err := planxIn(planx, dir, "abort", "--yes"); err != nil {
		return fmt.Sprintf("%s then abort: %v\n%s\n%s", sig, err, out.String(), o)
	}
	if got := preRunState(t, dir); got != before {
		c.lost++
		return fmt.Sprintf("%s then abort: state\n%s\nwant\n%s\nrun output:\n%s", sig, got, before, out.String())
	}
	if wts := planxWorktrees(t, dir); wts != "" {
		c.worktrees++
		return fmt.Sprintf("%s then abort: planx work trees left registered:\n%s", sig, wts)
	}
	c.abortOK++
	return ""
}

// planxWorktrees lists the work trees git has registered under planx's
// directory that a finished resume or abort should not leave: any but the
// slots of the work tree's pool (.git/planx/slots/), which stay for the
// next run and must be clean; "" when none.
func planxWorktrees(t *testing.T, dir string) string {
	var out []string
	for _, line := range strings.Split(gittest.Git(t, dir, "worktree", "list", "--porcelain"), "\n") {
		wt, ok := strings.CutPrefix(line, "worktree ")
		if !ok || !strings.Contains(wt, "/planx/") {
			continue
		}
		if strings.Contains(wt, "/planx/slots/") {
			if st := gittest.Git(t, wt, "status", "--porcelain", "--ignored"); st != "" {
				out = append(out, line+" (a pool slot left unclean: "+st+")")
			}
			continue
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// soakRepo makes a repository with committed files and pre-run work of every
// kind (modified, partly staged, staged new, untracked, a change to an
// assume-unchanged file, an intent-to-add entry) and slow hooks; it returns
// the directory and its state.
func soakRepo(t *testing.T, plan string) (string, string) {
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "plan.md", plan)
	gittest.WriteFile(t, dir, "keep.txt", "committed\n")
	gittest.WriteFile(t, dir, "part.txt", "committed\n")
	gittest.WriteFile(t, dir, "quiet.txt", "committed\n")
	gittest.Commit(t, dir, "initial")
	gittest.WriteFile(t, dir, "quiet.txt", "changed while git was told not to look\n")
	gittest.Git(t, dir, "update-index", "--assume-unchanged", "quiet.txt")
	gittest.WriteFile(t, dir, "intent.txt", "intent to add\n")
	gittest.Git(t, dir, "add", "-N", "intent.txt")
	gittest.WriteFile(t, dir, "keep.txt", "modified, not staged\n")
	gittest.WriteFile(t, dir, "part.txt", "staged version\n")
	gittest.WriteFile(t, dir, "new.txt", "staged new file\n")
	gittest.Git(t, dir, "add", "part.txt", "new.txt")
	gittest.WriteFile(t, dir, "part.txt", "work-tree version\n")
	gittest.WriteFile(t, dir, "untracked.bin", "bytes\x00\r\n")
	gittest.WriteFileMode(t, dir, ".git/hooks/pre-commit", "#!/bin/sh\nsleep 0.2\n", 0o755)
	gittest.WriteFileMode(t, dir, ".git/hooks/post-commit", "#!/bin/sh\nsleep 0.2\n", 0o755)
	return dir, preRunState(t, dir)
}

// preRunState is what abort must restore: HEAD, the index entries, status
// and the bytes of every file outside .git.
func preRunState(t *testing.T, dir string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "HEAD %s\n", gittest.Git(t, dir, "rev-parse", "HEAD"))
	b.WriteString(gittest.Git(t, dir, "ls-files", "-s") + "\n")
	b.WriteString(gittest.Git(t, dir, "ls-files", "-v") + "\n") // the assume-unchanged mark
	b.WriteString(gittest.Git(t, dir, "status", "--porcelain") + "\n")
	b.WriteString(fileHashes(t, dir))
	return b.String()
}

// soakOutcome is what a resumed run must share with an uninterrupted one.
func soakOutcome(t *testing.T, dir string) string {
	var b strings.Builder
	b.WriteString(gittest.Git(t, dir, "log", "--format=%s") + "\n")
	for _, line := range strings.Split(gittest.Git(t, dir, "ls-tree", "-r", "HEAD"), "\n") {
		if !strings.Contains(line, "memory-bank/execute/") {
			b.WriteString(line + "\n")
		}
	}
	b.WriteString("status: " + gittest.Git(t, dir, "status", "--porcelain") + "\n")
	gittest.Git(t, dir, "fsck", "--no-progress")
	return b.String()
}

func fileHashes(t *testing.T, dir string) string {
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			lines = append(lines, fmt.Sprintf("%x %s", sha256.Sum256(b), rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n"
}

func planxIn(planx, dir string, args ...string) (string, error) {
	cmd := exec.Command(planx, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		err = fmt.Errorf("exit %d", ee.ExitCode())
	}
	return string(out), err
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// gitLocks lists git's lock files (index.lock, HEAD.lock, ref locks) in
// dir's .git; planx's own locks (run.lock, notes.lock under .git/planx)
// are OS locks whose files always stay.
func gitLocks(dir string) []string {
	var out []string
	_ = filepath.WalkDir(filepath.Join(dir, ".git"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && p == filepath.Join(dir, ".git", "planx") {
			return filepath.SkipDir
		}
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".lock") {
			out = append(out, strings.TrimPrefix(p, dir+"/"))
		}
		return nil
	})
	return out
}
