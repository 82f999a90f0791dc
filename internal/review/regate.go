package review

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/ledger/records"
	"github.com/planx-dev/planx/planparse"
)

// settle re-runs the gates Options.Rerun asks for, reports what nothing
// vouches for, and marks each task report ok or not.
func (c *checker) settle() error {
	targets := c.rerunTargets()
	if len(targets) > 0 {
		src, name, err := c.trustedRev()
		if err != nil {
			return err
		}
		c.rep.GateSource = name
		for _, ck := range targets {
			out, err := c.regate(src, ck)
			if err != nil {
				return err
			}
			switch out {
			case regateNothing:
				// Nothing ran: nothing vouches, the commit keeps its finding.
			case regateCached:
				// Every gate passed on this tree before: the record vouches.
				if ck.pending != nil {
					c.rep.Runs[ck.at.run].Tasks[ck.at.task].Evidence = EvidenceRecorded
				}
				ck.pending = nil
			case regatePassed:
				ck.pending = nil
				c.rep.Runs[ck.at.run].Tasks[ck.at.task].Evidence = EvidenceRerun
			case regateFailed:
				ck.pending = nil // re-run: its failure is the finding
			}
		}
	}
	for _, ck := range c.ev.checked {
		if ck.pending != nil {
			c.rep.add(*ck.pending)
		}
	}
	bad := map[gitops.SHA]bool{}
	for _, f := range c.rep.Findings {
		if f.Severity == SeverityError && f.Commit != "" {
			bad[f.Commit] = true
		}
	}
	for i := range c.rep.Runs {
		for j := range c.rep.Runs[i].Tasks {
			t := &c.rep.Runs[i].Tasks[j]
			t.OK = !bad[t.Commit]
		}
	}
	return nil
}

// rerunTargets are the task commits whose gates run again.
func (c *checker) rerunTargets() []*checked {
	var out []*checked
	switch c.opts.Rerun {
	case RerunAll:
		out = c.ev.checked
	case RerunUnverified:
		for _, ck := range c.ev.checked {
			if ck.pending != nil {
				out = append(out, ck)
			}
		}
	case RerunTip:
		// Runs are read newest first, each one's tasks oldest first.
		var tip *checked
		for _, ck := range c.ev.checked {
			if tip == nil || ck.at.run < tip.at.run || (ck.at.run == tip.at.run && ck.at.task > tip.at.task) {
				tip = ck
			}
		}
		if tip != nil {
			out = append(out, tip)
		}
	}
	return out
}

// trustedRev is where re-run gates are defined: Base, else origin/HEAD
// (the remote's default branch); "" with --trust-branch-config (each commit's own). A
// branch's .planx.yaml and plan are the contributor's: taken from it, a
// gate is whatever the branch wants to run with the runner's secrets.
func (c *checker) trustedRev() (gitops.SHA, string, error) {
	if c.opts.TrustBranchConfig {
		return "", "each commit's own .planx.yaml and plan (--trust-branch-config)", nil
	}
	// Not the upstream: a pull request's upstream is the contributor's branch.
	cands := []string{"refs/remotes/origin/HEAD"}
	if c.opts.Base != "" {
		cands = []string{c.opts.Base}
	}
	for _, rev := range cands {
		sha, err := c.repo.Refs().Resolve(c.ctx, rev)
		if err != nil && c.opts.Base == "" {
			continue // no upstream: git says so with an error
		}
		if err != nil {
			return "", "", fmt.Errorf("%w: --base %s: %w", ErrRange, rev, err)
		}
		if sha != "" {
			c.srcLabel = fmt.Sprintf("%s (%s)", rev, sha.Short())
			return sha, ".planx.yaml and plan of " + c.srcLabel, nil
		}
	}
	if c.opts.Base != "" {
		return "", "", fmt.Errorf("%w: --base %s is not a commit here", ErrRange, c.opts.Base)
	}
	return "", "", fmt.Errorf("%w: --rerun-gates takes gate definitions from a trusted branch, and there is no origin/HEAD here: give --base REF (e.g. origin/main), or --trust-branch-config to run the branch's own gates", ErrUntrusted)
}

// regateOutcome is what re-running a commit's gates settled.
type regateOutcome int

const (
	regateNothing regateOutcome = iota // no gate to run: a no-gates finding
	regateCached                       // every gate passed on this tree before
	regatePassed                       // re-run now, all passed
	regateFailed                       // re-run now, one failed: a rerun-failed finding
)

// gateSpec is what the trusted definitions ask of one task commit.
type gateSpec struct {
	sel     []gates.Gate // the gates to re-run, acceptance commands first
	radius  string       // the task's blast radius
	env     []string     // the environment variables the configuration passes
	defined int          // gates the definitions have at all, for any task
	named   bool         // the task names its gates (Gates:)
	noFile  bool         // no .planx.yaml at the definitions' revision
}

// gatesFor returns the gates to re-run for ck as defined at rev ("" for
// the commit itself).
func (c *checker) gatesFor(rev gitops.SHA, ck *checked) (gateSpec, error) {
	if rev == "" {
		rev = ck.t.Commit
	}
	cfg, err := c.cfgs.at(c.ctx, c.repo, rev)
	if err != nil {
		return gateSpec{}, fmt.Errorf("rerun gates: .planx.yaml of %s: %w", rev.Short(), err)
	}
	p, err := c.planAt(rev, ck.plan)
	if err != nil {
		return gateSpec{}, fmt.Errorf("rerun gates: %s at %s: %w", ck.plan, rev.Short(), err)
	}
	var fromPlan, accept []gates.Gate
	var names []string
	sp := gateSpec{env: cfg.Env, noFile: c.cfgs.missing(rev)}
	if p != nil {
		if fromPlan, err = gates.FromPlan(p.Gates); err != nil {
			return gateSpec{}, fmt.Errorf("rerun gates: %s at %s: %w", ck.plan, rev.Short(), err)
		}
		if pt := p.Task(planparse.TaskID(ck.t.ID)); pt != nil {
			names, sp.radius, accept = pt.Gates, pt.BlastRadius, gates.Acceptance(pt)
		}
	}
	all := gates.Merge(cfg.Gates, fromPlan, nil)
	sp.defined, sp.named = len(all)+len(accept), names != nil
	// The task's acceptance commands first, as the executor runs them.
	sp.sel = append(accept, gates.Select(all, names, ck.last)...)
	return sp, nil
}

// nothingToRerun reports that the definitions give ck no gate to run, and
// returns regateNothing: a re-run that ran nothing never vouches for a
// commit. Definitions without a single gate (a base branch that has not
// adopted planx yet) are an error; gates that do not apply to this task
// (final ones on an earlier task, a Gates: naming none) leave the commit
// not re-verified, a warning (an error with --strict).
func (c *checker) nothingToRerun(ck *checked, sp gateSpec) regateOutcome {
	label := ck.t.ID + " (" + ck.t.Commit.Short() + ")"
	where := c.srcLabel
	if where == "" {
		where = "commit " + ck.t.Commit.Short() + " (its own definitions, --trust-branch-config)"
	}
	f := Finding{Severity: SeverityError, Kind: KindNoGates, Run: ck.run.ID, Task: ck.t.ID, Commit: ck.t.Commit}
	switch {
	case sp.defined > 0:
		if !c.opts.Strict {
			f.Severity = SeverityWarning
		}
		why := "they are final gates, run on a run's last task only"
		if sp.named {
			why = "the task's Gates: in " + ck.plan + " there names none of them"
		}
		f.Message = fmt.Sprintf("%s: nothing re-ran: none of the gates %s defines applies to %s (%s), so it is not re-verified here", label, where, ck.t.ID, why)
		c.rep.add(f)
		return regateNothing
	case sp.noFile:
		where += " has no " + gates.ConfigFile + " and defines no gate"
	default:
		where += " defines no gate (neither its " + gates.ConfigFile + " nor " + ck.plan + " there lists one)"
	}
	fix := "commit a " + gates.ConfigFile + " with gates to the base branch first (a pull request that adopts planx cannot be re-gated by its base), " +
		"give --base a revision that defines gates, or run the branch's own gates with --trust-branch-config"
	if c.srcLabel == "" {
		fix = "add gates to " + gates.ConfigFile
	}
	f.Message = fmt.Sprintf("%s: nothing re-ran: %s, so nothing vouches for this commit; %s", label, where, fix)
	c.rep.add(f)
	return regateNothing
}

// regate re-runs ck's gates on its tree, in a temporary detached worktree
// with a minimal environment, unless the tree has a passing record of the
// same gate command already; it records the results by tree.
func (c *checker) regate(rev gitops.SHA, ck *checked) (regateOutcome, error) {
	sp, err := c.gatesFor(rev, ck)
	if err != nil {
		return regateNothing, err
	}
	if len(sp.sel) == 0 {
		return c.nothingToRerun(ck, sp), nil
	}
	env := gates.MinimalEnv(unpinnedEnv(), sp.env)
	conf := gates.ConfiguredEnv(env, sp.env)
	recs, err := c.recordsOf(ck.t.Tree)
	if err != nil {
		return regateNothing, err
	}
	var torun []gates.Gate
	for _, g := range sp.sel {
		h := gates.CommandHash(g.Expand(sp.radius), conf)
		cached := false
		for _, rec := range recs {
			cached = cached || (!c.opts.NoCache && rec.Gate == g.Name && rec.CommandHash == h && rec.Passed)
		}
		if cached {
			c.rep.Gates = append(c.rep.Gates, GateRun{Task: ck.t.ID, Commit: ck.t.Commit, Name: g.Name, Command: g.Expand(sp.radius), Passed: true, Cached: true})
			continue
		}
		torun = append(torun, g)
	}
	if len(torun) == 0 {
		return regateCached, nil
	}
	rs, err := c.runIn(ck.t.Commit, torun, env, sp.radius)
	out := regatePassed
	var recorded []records.GateRecord
	for _, r := range rs {
		c.rep.Gates = append(c.rep.Gates, GateRun{Task: ck.t.ID, Commit: ck.t.Commit, Name: r.Name, Command: r.Command, Passed: r.Passed,
			ExitCode: r.ExitCode, DurationMS: r.Duration.Milliseconds(), TimedOut: r.TimedOut, Tail: r.Tail})
		recorded = append(recorded, records.GateRecord{Tree: ck.t.Tree, Gate: r.Name, CommandHash: gates.CommandHash(r.Command, conf),
			Passed: r.Passed, DurationMS: r.Duration.Milliseconds(), Commit: ck.t.Commit, By: "verify", At: time.Now().UTC()})
		if !r.Passed {
			out = regateFailed
			c.rep.add(Finding{Severity: SeverityError, Kind: KindRerunFailed, Run: ck.run.ID, Task: ck.t.ID, Commit: ck.t.Commit,
				Message: fmt.Sprintf("%s (%s): gate %s fails when re-run (exit %d)", ck.t.ID, ck.t.Commit.Short(), r.Name, r.ExitCode)})
		}
	}
	if err != nil {
		return regateFailed, fmt.Errorf("rerun gates of %s: %w", ck.t.ID, err)
	}
	if err := records.Of(c.repo).AddGates(recorded...); err != nil {
		return regateFailed, err
	}
	c.ev.records[ck.t.Tree] = append(c.ev.records[ck.t.Tree], recorded...)
	return out, nil
}

// runIn runs gs on commit's tree in a temporary detached worktree: the
// user's work tree, index and HEAD are never touched, and uncommitted files
// cannot make a pushed commit look good.
func (c *checker) runIn(commit gitops.SHA, gs []gates.Gate, env []string, radius string) ([]gates.Result, error) {
	tmp, err := os.MkdirTemp("", "planx-verify-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	wt := filepath.Join(tmp, "tree")
	if err := c.repo.Worktrees().Add(c.ctx, wt, commit); err != nil {
		return nil, err
	}
	defer func() {
		// A fresh context: the worktree must go even after an interruption.
		_ = c.repo.Worktrees().Remove(context.WithoutCancel(c.ctx), wt)
	}()
	live := c.opts.GateOutput
	if live == nil {
		live = io.Discard
	}
	return gates.Run(c.ctx, gs, gates.RunOptions{Dir: wt, Env: env, Task: "verify", BlastRadius: radius, Live: live})
}

// unpinnedEnv is planx's environment without the variables git exports to a
// hook to pin its repository: inside a pre-push hook they would point the
// gates' own git commands at the user's repository instead of the worktree.
func unpinnedEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY":
			continue
		}
		env = append(env, kv)
	}
	return env
}
