package command

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// TestSoak interrupts planx at random moments with SIGINT, SIGTERM, SIGHUP
// or SIGKILL (soakModes: serial runs, waves, a wave whose landing takes
// measurable time, agent waves, tasks deleting the user's ignored data),
// sometimes makes a person's hand fix after the stop, then resumes or
// aborts, for as long as PLANX_SOAK says (e.g. 60s), and counts: resumes
// identical to an uninterrupted run (with the same hand fix), aborts
// identical to the pre-run state (HEAD, index entries, status, the bytes
// of every file, ignored ones included), stale git lock files, wedges,
// wrong commits, lost bytes. Any miss fails the test; the counts are
// logged.
func TestSoak(t *testing.T) {
	budget, err := time.ParseDuration(os.Getenv("PLANX_SOAK"))
	if err != nil || budget <= 0 {
		t.Skip("set PLANX_SOAK=60s to run the random-interrupt soak")
	}
	gittest.Setenv(t)
	planx := planxBinary(t)
	modes := soakModes()
	wants := map[string]soakWant{} // made when first needed, within the budget
	var c soakCounts
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 11))
	for end := time.Now().Add(budget); time.Now().Before(end); {
		path := []string{"", "0"}[rng.IntN(2)]
		mode := modes[rng.IntN(len(modes))]
		hand := rng.IntN(3) == 0
		t.Setenv("PLANX_SMALL_INDEX", path)
		key := path + " " + mode.name
		if _, ok := wants[key]; !ok {
			wants[key] = soakUninterrupted(t, planx, mode)
		}
		if msg := soakOnce(t, planx, rng, mode, hand, wants[key], &c); msg != "" {
			c.failures = append(c.failures, mode.name+": "+msg)
		}
		c.modes[mode.name]++
	}
	t.Logf("soak %s: %d interrupted (%s; %d finished before the signal; %d with a hand fix after the stop); by phase: %s; "+
		"resumes %d/%d identical to an uninterrupted run (%d refused over a hand fix, then --retry; %d stopped a wave's landing at a hand fix, then landed over it keeping it); aborts %d/%d identical to the pre-run state (index marks and ignored files included); "+
		"wedged (resume or abort failed) %d; wrong commits %d; stale git locks (index.lock, ref locks) %d; planx work trees left registered %d; lost bytes %d",
		budget, c.runs, c.tally(), c.early, c.hand, soakList(c.phases),
		c.resumeOK, c.resumes, c.retried, c.over, c.abortOK, c.aborts, c.wedged, c.wrong, c.staleLock, c.worktrees, c.lost)
	for _, f := range c.failures {
		t.Error(f)
	}
}

// soakWant is what an uninterrupted run of a mode gives, then with the
// person's hand fix made after it, and how long it took; handFirst is what
// it gives when the hand fix came before it: a run stopped before its
// rollback commit had not begun, and its resume takes the person's edits
// as work from before the run, as a run started then would.
type soakWant struct {
	outcome, hand, handFirst string
	// over is the outcome with the hand fix made after the run, less its
	// edit of keep.txt: a wave landed over that edit, keeping it under a
	// ref, since the landing found it in its way.
	over string
	// beforeHand is the pre-run state with the hand fix made: what an
	// abort of a run stopped before its rollback commit leaves after one.
	beforeHand string
	took       time.Duration
}

// soakUninterrupted runs mode's plan without a stop and returns its
// outcome, then the outcome with the hand fix made.
func soakUninterrupted(t *testing.T, planx string, mode soakMode) soakWant {
	dir, _ := soakRepoFor(t, mode)
	start := time.Now()
	if out, err := planxIn(planx, dir, mode.args...); err != nil {
		t.Fatalf("uninterrupted %s run: %v\n%s", mode.name, err, out)
	}
	w := soakWant{outcome: soakOutcome(t, dir), took: time.Since(start)}
	soakHandNew(t, dir)
	w.over = soakOutcome(t, dir)
	soakHand(t, dir)
	w.hand = soakOutcome(t, dir)
	dir, _ = soakRepoFor(t, mode)
	soakHand(t, dir)
	w.beforeHand = preRunState(t, dir)
	if out, err := planxIn(planx, dir, mode.args...); err != nil {
		t.Fatalf("uninterrupted %s run after a hand fix: %v\n%s", mode.name, err, out)
	}
	w.handFirst = soakOutcome(t, dir)
	return w
}

type soakCounts struct {
	runs, early, hand, retried, over, resumes, resumeOK, aborts, abortOK, staleLock, worktrees, lost, wedged, wrong int
	sig                                                                                                             map[syscall.Signal]int
	modes, phases                                                                                                   map[string]int
	failures                                                                                                        []string
}

// tally is the trials by mode and by signal.
func (c *soakCounts) tally() string {
	sigs := map[string]int{}
	for s, n := range c.sig {
		sigs[map[syscall.Signal]string{syscall.SIGINT: "INT", syscall.SIGTERM: "TERM", syscall.SIGHUP: "HUP", syscall.SIGKILL: "KILL"}[s]] = n
	}
	return soakList(c.modes) + "; " + soakList(sigs)
}

func soakList(m map[string]int) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(out, ", ")
}

// soakOnce is one trial; it returns what went wrong, or "".
func soakOnce(t *testing.T, planx string, rng *rand.Rand, mode soakMode, hand bool, want soakWant, c *soakCounts) string {
	dir, before := soakRepoFor(t, mode)
	sig := mode.sigs[rng.IntN(len(mode.sigs))]
	var other *exec.Cmd
	if mode.linked {
		other = soakLinked(t, planx, dir, mode)
	}
	cmd := exec.Command(planx, mode.args...)
	cmd.Dir = dir
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return err.Error()
	}
	if c.sig == nil {
		c.sig, c.modes, c.phases = map[syscall.Signal]int{}, map[string]int{}, map[string]int{}
	}
	delay := time.Duration(rng.IntN(2500)) * time.Millisecond
	if mode.span {
		delay = soakDelay(rng, want.took)
	}
	if mode.landing && rng.IntN(2) == 0 {
		if soakLanding(dir, 2*max(want.took, 2500*time.Millisecond), time.Duration(rng.IntN(40))*time.Millisecond) {
			c.phases["signal sent while a wave landed"]++
		}
	} else {
		time.Sleep(delay)
	}
	_ = cmd.Process.Signal(sig)
	err := cmd.Wait()
	c.runs++
	c.sig[sig]++
	// The linked work tree's run ends before this one's recovery, whose
	// checks of the pool would see its slots in use.
	otherErr := soakWait(other)
	if err == nil {
		c.early++
		return soakOther(t, planx, other, otherErr, dir)
	}
	if soakEnded(dir) {
		// The signal came after the run had ended (its state dropped, the
		// record undo reads kept) while planx still said so: nothing is
		// left to recover, and the repository is the uninterrupted run's.
		c.early++
		if got := soakOutcome(t, dir); got != want.outcome {
			c.wrong++
			return fmt.Sprintf("%s after the run ended: the outcome differs from an uninterrupted run's:\n%s\nwant\n%s", sig, got, want.outcome)
		}
		return soakOther(t, planx, other, otherErr, dir)
	}
	msg := soakRecover(t, planx, rng, mode, sig, hand, dir, before, want, out.String(), c)
	if msg == "" {
		msg = soakOther(t, planx, other, otherErr, dir)
	}
	return msg
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
	b.WriteString("status: " + gittest.Git(t, dir, "status", "--porcelain", "--ignored") + "\n")
	for _, line := range strings.Split(fileHashes(t, dir), "\n") {
		if !strings.Contains(line, "memory-bank/execute/") {
			b.WriteString(line + "\n")
		}
	}
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
	return planxEnvIn(nil, planx, dir, args...)
}

// planxEnvIn is planxIn with env for planx's environment (nil: the test's).
func planxEnvIn(env []string, planx, dir string, args ...string) (string, error) {
	cmd := exec.Command(planx, args...)
	cmd.Dir = dir
	cmd.Env = env
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
		if err == nil && d.IsDir() && d.Name() == "planx" { // (.git/planx, .git/worktrees/<name>/planx)
			return filepath.SkipDir
		}
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".lock") {
			out = append(out, strings.TrimPrefix(p, dir+"/"))
		}
		return nil
	})
	return out
}

// soakEnded says the run in dir ended: no state of a run in progress, and
// the record of a finished run that endFinished keeps before it drops the
// state.
func soakEnded(dir string) bool {
	if exists(filepath.Join(dir, ".git", "planx", "state.json")) {
		return false
	}
	m, _ := filepath.Glob(filepath.Join(dir, ".git", "planx", "runs", "*", "finished.json"))
	return len(m) > 0
}

// soakUnbased says the run in dir stopped before its rollback commit: its
// state is saved, its base is not, and HEAD is no rollback commit (made,
// not yet recorded: resume adopts it).
func soakUnbased(dir string) bool {
	if subject, err := exec.Command("git", "-C", dir, "log", "-1", "--format=%s").Output(); err != nil || strings.HasPrefix(string(subject), "rollback:") {
		return false
	}
	b, err := os.ReadFile(filepath.Join(dir, ".git", "planx", "state.json"))
	if err != nil {
		return false
	}
	var st struct {
		Base string `json:"base"`
	}
	_ = json.NewDecoder(bytes.NewReader(b)).Decode(&st) // the state's first value
	return st.Base == ""
}
