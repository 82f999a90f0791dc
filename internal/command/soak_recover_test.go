package command

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// soakPhase says where a stop left the run: its phase, in a wave or not,
// with a cut landing or not.
func soakPhase(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, ".git", "planx", "state.json"))
	if err != nil {
		return "before the run"
	}
	var st struct {
		Phase string   `json:"phase"`
		Wave  []string `json:"wave"`
	}
	_ = json.NewDecoder(bytes.NewReader(b)).Decode(&st) // the state's first value
	phase := cmp.Or(st.Phase, "between tasks")
	if soakUnbased(dir) {
		phase = "before the rollback commit"
	}
	if len(st.Wave) > 0 {
		phase = "wave " + phase
	}
	if refs, _ := exec.Command("git", "-C", dir, "for-each-ref", "refs/planx/runs/*/landing").Output(); len(refs) > 0 {
		phase = "wave landing"
	}
	return phase
}

// soakRecover resumes or aborts the run stopped in dir, after the hand fix
// when hand says so (after every signal, SIGKILL included), and checks the
// outcome against want's; it returns what went wrong, or "". A hand fix
// after a stop before the rollback commit is work from before the run:
// resume takes it as a run started after it would, abort leaves it.
func soakRecover(t *testing.T, planx string, rng *rand.Rand, mode soakMode, sig syscall.Signal, hand bool, dir, before string, want soakWant, out string, c *soakCounts) string {
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
		return fmt.Sprintf("%s: stale %s after the run exited\n%s", sig, strings.Join(locks, ", "), out)
	}
	c.phases[soakPhase(dir)]++
	// A signal before the run recorded anything stops it with nothing to
	// resume or abort: then nothing may have changed either.
	started := exists(filepath.Join(dir, ".git", "planx", "state.json"))
	if !started {
		if got := preRunState(t, dir); got != before {
			c.lost++
			return fmt.Sprintf("%s before the run started changed the repository:\n%s\nwant\n%s", sig, got, before)
		}
	}
	if hand && (!started || soakUnbased(dir)) {
		// Not begun (run again), or stopped before its rollback commit
		// (resumed): the fix is work from before the run.
		want.hand, before = want.handFirst, want.beforeHand
	}
	if hand {
		c.hand++
		soakHand(t, dir)
	}
	if rng.IntN(2) == 0 {
		return soakResume(t, planx, mode, sig, started, hand, dir, want, out, c)
	}
	c.aborts++
	if !started {
		c.abortOK++
		return ""
	}
	if o, err := planxIn(planx, dir, "abort", "--yes"); err != nil {
		c.wedged++
		return fmt.Sprintf("%s then abort: %v\n%s\n%s", sig, err, out, o)
	}
	lost := mode.lost
	if got, want := soakLess(preRunState(t, dir), lost), soakLess(before, lost); got != want {
		c.lost++
		return fmt.Sprintf("%s then abort: state\n%s\nwant\n%s\nrun output:\n%s", sig, got, want, out)
	}
	if hand && !soakHandKept(t, dir) {
		c.lost++
		return fmt.Sprintf("%s then abort: the person's hand fix is neither in the work tree nor under a ref", sig)
	}
	if wts := planxWorktrees(t, dir); wts != "" {
		c.worktrees++
		return fmt.Sprintf("%s then abort: planx work trees left registered:\n%s", sig, wts)
	}
	c.abortOK++
	return ""
}

// soakResume resumes the run stopped in dir (runs it again when it had
// not started) and compares the outcome with want's (with the hand fix
// when hand says so). A resume that stops over a person's hand fix is
// followed by what it says to do: `planx resume --retry` when it refused
// to run a task again over it, `planx resume` when a wave's landing found
// it in its way; the outcome of a landing over the fix, which it keeps
// under a ref, is want's without the fix's edit, and the fix is under a
// ref.
func soakResume(t *testing.T, planx string, mode soakMode, sig syscall.Signal, started, hand bool, dir string, want soakWant, out string, c *soakCounts) string {
	c.resumes++
	again := []string{"resume"}
	if !started {
		again = mode.args
	}
	o, err := planxIn(planx, dir, again...)
follow:
	for try := 0; err != nil && hand && try < 2; try++ {
		var next string
		switch {
		case strings.Contains(o, "`planx resume --retry` runs it again keeping them"):
			c.retried++
			next, err = planxIn(planx, dir, "resume", "--retry")
		case strings.Contains(o, "`planx resume` keeps your version under"):
			c.over++
			next, err = planxIn(planx, dir, "resume")
		default:
			break follow
		}
		o += next
	}
	if err != nil {
		c.wedged++
		return fmt.Sprintf("%s then resume: %v\n%s\n%s", sig, err, out, o)
	}
	w := want.outcome
	switch {
	case hand && strings.Contains(o, "lands: your bytes are at"):
		w = want.over
		if !soakHandKept(t, dir) {
			c.lost++
			return fmt.Sprintf("%s then resume: a wave landed over the person's hand fix and it is under no ref\n%s", sig, o)
		}
	case hand:
		w = want.hand
	}
	return soakResumed(t, sig, dir, w, out, c)
}

// soakResumed compares the outcome of a finished resume with want.
func soakResumed(t *testing.T, sig syscall.Signal, dir, want, out string, c *soakCounts) string {
	got := soakOutcome(t, dir)
	if got != want {
		history := func(o string) string { h, _, _ := strings.Cut(o, "status:"); return h }
		if history(got) != history(want) {
			c.wrong++
		} else {
			c.lost++
		}
		return fmt.Sprintf("%s then resume: outcome\n%s\nwant\n%s\nrun output:\n%s", sig, got, want, out)
	}
	if wts := planxWorktrees(t, dir); wts != "" {
		c.worktrees++
		return fmt.Sprintf("%s then resume: planx work trees left registered:\n%s", sig, wts)
	}
	c.resumeOK++
	return ""
}
