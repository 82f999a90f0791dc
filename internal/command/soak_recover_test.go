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
// outcome against want; it returns what went wrong, or "".
func soakRecover(t *testing.T, planx string, rng *rand.Rand, mode soakMode, sig syscall.Signal, hand bool, dir, before, want, out string, c *soakCounts) string {
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
// not started) and compares the outcome with want. A resume that refuses
// to run a task again over a person's hand fix is followed by what it
// says to do, `planx resume --retry`.
func soakResume(t *testing.T, planx string, mode soakMode, sig syscall.Signal, started, hand bool, dir, want, out string, c *soakCounts) string {
	c.resumes++
	again := []string{"resume"}
	if !started {
		again = mode.args
	}
	o, err := planxIn(planx, dir, again...)
	if err != nil && hand && strings.Contains(o, "`planx resume --retry` runs it again keeping them") {
		c.retried++
		o, err = planxIn(planx, dir, "resume", "--retry")
	}
	if err != nil {
		c.wedged++
		return fmt.Sprintf("%s then resume: %v\n%s\n%s", sig, err, out, o)
	}
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
