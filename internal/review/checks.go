package review

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"github.com/planx-dev/planx/internal/linediff"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
)

// checker verifies runs against the plan at the tip, caching what it reads.
type checker struct {
	ctx   context.Context
	repo  *gitops.Repo
	tip   gitops.SHA
	rep   *Report
	plans map[string]*planparse.Plan   // rev + ":" + path → parsed (nil: no such file)
	texts map[[32]byte]*planparse.Plan // SHA-256 of a plan's text → parsed
	cfgs  *configCache
	opts  Options
	ev    evidence
	// srcLabel names the trusted revision re-run gates are defined at
	// ("" with --trust-branch-config: each commit's own).
	srcLabel string
	// accepts are the commits that accepted a task's new text without
	// running it again, newest first; read once, when first needed.
	accepts []gitops.Commit
}

func newChecker(ctx context.Context, repo *gitops.Repo, tip gitops.SHA, rep *Report) *checker {
	return &checker{ctx: ctx, repo: repo, tip: tip, rep: rep, plans: map[string]*planparse.Plan{}, texts: map[[32]byte]*planparse.Plan{}, cfgs: &configCache{}}
}

func (c *checker) close() { c.cfgs.close() }

// planAt parses the plan file as committed in rev; nil when it is not there.
func (c *checker) planAt(rev gitops.SHA, file string) (*planparse.Plan, error) {
	key := string(rev) + ":" + file
	if p, ok := c.plans[key]; ok {
		return p, nil
	}
	src, err := c.repo.History().ShowFile(c.ctx, rev, file)
	if errors.Is(err, fs.ErrNotExist) {
		c.plans[key] = nil
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	// Runs of one plan mostly see the same text: parse each text once.
	sum := sha256.Sum256(src)
	if p, ok := c.texts[sum]; ok {
		c.plans[key] = p
		return p, nil
	}
	p, err := planparse.Parse(file, src, planparse.Options{})
	if err != nil {
		return nil, err
	}
	c.plans[key], c.texts[sum] = p, p
	return p, nil
}

// run checks the task commits of r that are in scope (all when scope is nil).
func (c *checker) run(r *Run, scope map[gitops.SHA]bool) error {
	rr := RunReport{ID: r.ID, Plan: r.Plan, Rollback: r.Rollback, Tasks: []TaskReport{}, Missing: []string{}}
	defer func() { c.rep.Runs = append(c.rep.Runs, rr) }()
	if r.Plan == "" {
		c.rep.add(Finding{Severity: SeverityError, Kind: KindMalformed, Run: r.ID, Message: "run " + r.ID + " names no plan (Refs trailer)"})
		return nil
	}
	tip, err := c.planAt(c.tip, r.Plan)
	if errors.Is(err, planparse.ErrUnreadable) {
		c.rep.add(Finding{Severity: SeverityError, Kind: KindPlanInvalid, Run: r.ID, Message: err.Error()})
		return nil
	}
	if err != nil {
		return err
	}
	if tip == nil {
		c.rep.add(Finding{Severity: SeverityError, Kind: KindNotInPlan, Run: r.ID,
			Message: fmt.Sprintf("plan %s of run %s is not in %s: its tasks cannot be checked", r.Plan, r.ID, c.tip.Short())})
		return nil
	}
	if perr := tip.Err(); perr != nil {
		c.rep.add(Finding{Severity: SeverityError, Kind: KindPlanInvalid, Run: r.ID, Message: perr.Error()})
	}
	// The plan and config as the run started: what the executor saw.
	var before *planparse.Plan
	if r.Rollback != "" {
		if before, err = c.planAt(r.Rollback, r.Plan); err != nil {
			return err
		}
	}
	pos := map[string]int{}
	for i, t := range r.Tasks {
		pos[t.ID] = i
	}
	if err := c.loadNotes(r, scope); err != nil {
		return err
	}
	runIdx := len(c.rep.Runs) // rr is appended there when this returns
	for i := range r.Tasks {
		t := &r.Tasks[i]
		if scope != nil && !scope[t.Commit] {
			continue
		}
		n := len(c.rep.Findings)
		if err := c.task(r, t, tip, before, pos); err != nil {
			return err
		}
		ok := true
		for _, f := range c.rep.Findings[n:] {
			ok = ok && f.Severity != SeverityError
		}
		ev, err := c.evidence(r, t, at{run: runIdx, task: len(rr.Tasks)}, i == len(r.Tasks)-1)
		if err != nil {
			return err
		}
		rr.Tasks = append(rr.Tasks, TaskReport{ID: t.ID, Label: t.Label, Commit: t.Commit, Subject: t.Subject, Gates: t.Gates,
			WaveGates: t.WaveGates, Evidence: ev, Sandbox: t.Sandbox, Warnings: t.Warnings, Finished: t.Finished, OK: ok})
	}
	for _, pt := range tip.Tasks {
		id := string(pt.ID)
		// A group is done with its sub-tasks, in their commits; optional
		// tasks run only when asked.
		if _, done := pos[id]; done || pt.Status == planparse.StatusDone || pt.Optional || len(pt.Children) > 0 || slices.Contains(r.Skipped, id) {
			continue
		}
		rr.Missing = append(rr.Missing, id)
	}
	if len(rr.Missing) > 0 {
		c.rep.add(Finding{Severity: SeverityWarning, Kind: KindMissing, Run: r.ID,
			Message: fmt.Sprintf("plan %s: %d task(s) not done yet: %s", r.Plan, len(rr.Missing), strings.Join(rr.Missing, ", "))})
	}
	return nil
}

// task checks one task commit.
func (c *checker) task(r *Run, t *TaskCommit, tip, before *planparse.Plan, pos map[string]int) error {
	add := func(sev, kind, format string, args ...any) *Finding {
		c.rep.add(Finding{Severity: sev, Kind: kind, Run: r.ID, Task: t.ID, Commit: t.Commit, Message: fmt.Sprintf(format, args...)})
		return &c.rep.Findings[len(c.rep.Findings)-1]
	}
	at := t.ID + " (" + t.Commit.Short() + ")"
	for _, p := range t.Problems {
		add(SeverityError, KindMalformed, "%s: %s", at, p)
	}
	for _, g := range t.Gates {
		if !g.Passed {
			add(SeverityError, KindGateFailed, "%s: gate %s recorded as failed", at, g.Name)
		}
	}
	for _, g := range t.WaveGates {
		if !g.Passed {
			add(SeverityError, KindGateFailed, "%s: integration gate %s recorded as failed on its wave's combined tree", at, g.Name)
		}
	}
	if t.ID == "" {
		return nil
	}
	mine, err := c.planAt(t.Commit, r.Plan)
	if err != nil {
		return err
	}
	var then *planparse.Task // the task as committed
	if mine != nil {
		then = mine.Task(planparse.TaskID(t.ID))
	}
	if err := c.changes(t, r.Plan, then, add); err != nil {
		return err
	}
	if err := c.gatesRecorded(r, t, before, add); err != nil {
		return err
	}
	now := tip.Task(planparse.TaskID(t.ID))
	if now == nil {
		add(SeverityError, KindNotInPlan, "%s: task %s is no longer in %s", at, t.ID, r.Plan)
		return nil
	}
	accepted, err := c.acceptedText(r.Plan, t, now)
	if err != nil {
		return err
	}
	if accepted != "" {
		add(SeverityWarning, KindTextAccepted, "%s: the text of task %s changed in %s since it was committed, and was accepted without running it again in %s", at, t.ID, r.Plan, accepted.Short())
	} else if t.TaskHash != "" && !now.HashMatches(t.TaskHash) {
		f := add(SeverityError, KindDrift, "%s: the text of task %s changed in %s since it was committed", at, t.ID, r.Plan)
		if then != nil {
			f.Diff = linediff.Lines(then.Body, now.Body)
			if !then.HashMatches(t.TaskHash) {
				f.Message += " (the commit's own plan does not match its recorded hash either)"
			}
		}
	}
	deps := now.DependsOn
	if before != nil {
		if b := before.Task(planparse.TaskID(t.ID)); b != nil {
			deps = b.DependsOn
		}
	}
	for _, d := range deps {
		j, ok := pos[string(d)]
		switch {
		case ok && j > pos[t.ID]:
			add(SeverityError, KindOrder, "%s: committed before its dependency %s (%s)", at, d, r.Tasks[j].Commit.Short())
		case !ok && !doneIn(before, d) && !slices.Contains(r.Skipped, string(d)):
			add(SeverityWarning, KindOrder, "%s: depends on %s, which this run did not commit and which was not done before it", at, d)
		}
	}
	return nil
}

func doneIn(p *planparse.Plan, id planparse.TaskID) bool {
	if p == nil {
		return true // no rollback commit to ask: do not guess
	}
	t := p.Task(id)
	return t != nil && t.Status == planparse.StatusDone
}

// logRE matches execution log names (execlog.FileName): the log travels in
// every task commit and is no evidence of work.
var logRE = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}_[0-9]{2}-[0-9]{2}-[0-9]{2}_[^/]*\.md$`)

// IsExecutionLog reports whether a repo-relative path names an execution log.
func IsExecutionLog(p string) bool { return logRE.MatchString(path.Base(p)) }

// changes flags a task commit that changed nothing but the plan and the log.
func (c *checker) changes(t *TaskCommit, plan string, then *planparse.Task, add func(string, string, string, ...any) *Finding) error {
	files, err := c.repo.History().ChangedFiles(c.ctx, t.Parent, t.Commit)
	if err != nil {
		return err
	}
	for _, f := range files {
		if f != plan && !IsExecutionLog(f) {
			return nil
		}
	}
	if then != nil && then.Checkpoint {
		return nil
	}
	add(SeverityError, KindEmpty, "%s (%s): claims task %s but changes nothing besides the plan and the execution log", t.ID, t.Commit.Short(), t.ID)
	return nil
}

// gatesRecorded checks that every per-task gate the run was configured with
// (config and plan as of the rollback commit) has a Planx-Gate trailer.
// --gate flags can only add gates, so this is a lower bound; final gates are
// left out because only the run's last task runs them.
func (c *checker) gatesRecorded(r *Run, t *TaskCommit, before *planparse.Plan, add func(string, string, string, ...any) *Finding) error {
	if r.Rollback == "" || before == nil {
		return nil
	}
	cfg, err := c.cfgs.at(c.ctx, c.repo, r.Rollback)
	if err != nil {
		add(SeverityWarning, KindGateMissing, "%s: cannot read the run's gate configuration: %v", t.ID, err)
		return nil
	}
	fromPlan, err := gates.FromPlan(before.Gates)
	if err != nil {
		return nil // the run could not have started with it: nothing to expect
	}
	var names []string
	if bt := before.Task(planparse.TaskID(t.ID)); bt != nil {
		names = bt.Gates
	}
	recorded := map[string]bool{}
	for _, g := range t.Gates {
		recorded[g.Name] = true
	}
	for _, g := range gates.Select(gates.Merge(cfg.Gates, fromPlan, nil), names, false) {
		if !recorded[g.Name] {
			add(SeverityError, KindGateMissing, "%s (%s): gate %s was configured but is not recorded", t.ID, t.Commit.Short(), g.Name)
		}
	}
	// The review gate judges every agent task; its verdict is a gate like
	// the others (a failed one is reported with them).
	if cfg.Review.On() && t.Executor == string(planparse.KindAgent) && !recorded[gates.ReviewGate] {
		add(SeverityError, KindGateMissing, "%s (%s): the review gate (review: in .planx.yaml) was configured but is not recorded", t.ID, t.Commit.Short())
	}
	return nil
}
