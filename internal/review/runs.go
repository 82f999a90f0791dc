package review

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
)

// Run is one planx run as its commits record it.
type Run struct {
	ID       string     `json:"id"`
	Plan     string     `json:"plan"`
	Rollback gitops.SHA `json:"rollback"` // "" when the rollback commit was not found
	Started  time.Time  `json:"started,omitzero"`
	// Tasks are the run's task commits in the order they were made.
	Tasks []TaskCommit `json:"tasks"`
	// Skipped lists the task ids Planx-Skipped trailers name.
	Skipped []string `json:"skipped"`
	// Finished are the Planx-Finished values of tasks without a commit of
	// their own ("T003 skipped after gate test failed (exit 1)").
	Finished []string `json:"finished,omitempty"`
	// Other lists commits of the run that are neither its rollback nor a task
	// (trailers from a newer planx); they are kept, not judged.
	Other []gitops.SHA `json:"other_commits,omitempty"`
	// Complete is true when the rollback commit was found.
	Complete bool     `json:"complete"`
	Problems []string `json:"problems,omitempty"`
}

// Cost is the sum of the run's tasks' Planx-Cost, nil when none has one.
func (r *Run) Cost() *record.Cost {
	var sum record.Cost
	found := false
	for _, t := range r.Tasks {
		if t.Cost != nil {
			sum, found = sum.Add(*t.Cost), true
		}
	}
	if !found {
		return nil
	}
	return &sum
}

// Task returns the run's last commit for task id, or failing that for the
// task its plan calls id (its Planx-Label: 1.2), or nil.
func (r *Run) Task(id string) *TaskCommit {
	for i := len(r.Tasks) - 1; i >= 0; i-- {
		if r.Tasks[i].ID == id {
			return &r.Tasks[i]
		}
	}
	for i := len(r.Tasks) - 1; i >= 0; i-- {
		if r.Tasks[i].Label != "" && r.Tasks[i].Label == id {
			return &r.Tasks[i]
		}
	}
	return nil
}

// Runs returns every run on the first-parent history of from ("" for HEAD),
// newest first; plan, when not empty, keeps only the runs of that plan (as
// their Refs trailer names it). In a shallow clone cut inside a run it
// returns the runs read so far and a *ShallowError. It reads the whole
// history: see Indexed for a bounded read.
func Runs(ctx context.Context, repo *gitops.Repo, from gitops.SHA, plan string) ([]Run, error) {
	return collect(ctx, repo, from, plan, nil, nil)
}

// Indexed is Runs bounded by the runs this clone knows of. Every run leaves
// refs/planx/runs/<id>/base at its rollback commit; once the oldest of
// those rollback commits on the history has been read, Indexed stops and
// returns it as stoppedAt, so that history older than any recorded run
// (years of commits before planx came to the repository) is not read. The
// runs of an abort (their commits are off the branch) do not count. Without
// such refs (a fresh clone that did not fetch refs/planx/*), or when one of
// them is not found, the whole history is read and stoppedAt is "".
// History older than stoppedAt can still hold runs made in another clone:
// Runs reads them.
func Indexed(ctx context.Context, repo *gitops.Repo, from gitops.SHA, plan string) (runs []Run, stoppedAt gitops.SHA, err error) {
	refs, err := repo.Refs().List(ctx, record.RunsRefPrefix)
	if err != nil {
		return nil, "", fmt.Errorf("read runs: %w", err)
	}
	left := map[gitops.SHA]bool{}
	for name, sha := range refs {
		id, kind, ok := runRef(name)
		_, aborted := refs[record.RunRef(id, "aborted")]
		if _, head := refs[record.RunRef(id, "head")]; head {
			aborted = true
		}
		if ok && kind == "base" && !aborted {
			left[sha] = true
		}
	}
	if len(left) == 0 {
		runs, err := collect(ctx, repo, from, plan, nil, nil)
		return runs, "", err
	}
	runs, err = collect(ctx, repo, from, plan, nil, func(r *Run) bool {
		if r.Rollback != "" && left[r.Rollback] {
			delete(left, r.Rollback)
			if len(left) == 0 {
				stoppedAt = r.Rollback
				return true
			}
		}
		return false
	})
	return runs, stoppedAt, err
}

// runRef splits refs/planx/runs/<id>/<kind>.
func runRef(name string) (id, kind string, ok bool) {
	id, kind, ok = record.ParseRunRef(name)
	return id, kind, ok && !strings.Contains(kind, "/")
}

// Recent is Runs limited to the n most recent runs (n > 0); reading stops at
// the rollback commit of the n-th.
func Recent(ctx context.Context, repo *gitops.Repo, from gitops.SHA, plan string, n int) ([]Run, error) {
	seen := 0
	return collect(ctx, repo, from, plan, func(*Run) bool { seen++; return seen >= n }, nil)
}

// Latest returns the most recent run (of plan, when given) reachable from
// from, reading history only back to its rollback commit; nil when there is
// none.
func Latest(ctx context.Context, repo *gitops.Repo, from gitops.SHA, plan string) (*Run, error) {
	runs, err := collect(ctx, repo, from, plan, func(*Run) bool { return true }, nil)
	if len(runs) == 0 {
		return nil, err
	}
	return &runs[0], err
}

// collect walks first parents from `from`, grouping planx commits into runs.
// stop is asked after each run that passes the plan filter, after after every
// run; true from either ends the walk there.
func collect(ctx context.Context, repo *gitops.Repo, from gitops.SHA, plan string, stop, after func(*Run) bool) ([]Run, error) {
	if from == "" {
		head, err := repo.Refs().Resolve(ctx, "HEAD")
		if err != nil {
			return nil, fmt.Errorf("read runs: %w", err)
		}
		if from = head; from == "" {
			return nil, nil // unborn branch: no history, no runs
		}
	}
	pg := &pager{repo: repo, from: from, size: 8}
	co := &collector{plan: plan, stop: stop, after: after}
	var last gitops.SHA
	for {
		c, ok, err := pg.next(ctx)
		if err != nil {
			return co.runs, fmt.Errorf("read runs: %w", err)
		}
		if !ok {
			break
		}
		last = c.SHA
		if co.add(c) {
			return co.runs, nil
		}
	}
	if co.open == nil {
		return co.runs, nil
	}
	shallow, err := repo.History().IsShallow(ctx)
	if err != nil {
		return co.runs, fmt.Errorf("read runs: %w", err)
	}
	id := co.open.ID
	co.open.Problems = append(co.open.Problems, "history ends before the run's rollback commit")
	co.finish()
	if shallow {
		return co.runs, &ShallowError{Run: id, Boundary: last}
	}
	return co.runs, nil
}

// collector gathers runs from commits read newest first: the run whose
// commits it is reading is open until its rollback commit.
type collector struct {
	plan        string
	stop, after func(*Run) bool
	runs        []Run
	open        *Run
}

// add takes the next (older) commit; it reports whether the walk should
// stop.
func (co *collector) add(c gitops.Commit) bool {
	p := classify(c)
	if p.kind == kindOther {
		return false
	}
	if co.open != nil && co.open.ID != p.run {
		co.open.Problems = append(co.open.Problems, "no rollback commit on the first-parent history before the run's first commit")
		if co.finish() {
			return true
		}
	}
	if co.open == nil {
		co.open = &Run{ID: p.run, Tasks: []TaskCommit{}, Skipped: []string{}}
	}
	open := co.open
	if open.Plan == "" || p.kind == kindRollback {
		open.Plan = p.plan
	}
	// Walking backwards: an older commit's skips go first, in their own order.
	open.Skipped = append(slices.Clone(p.skipped), open.Skipped...)
	open.Finished = append(slices.Clone(p.finished), open.Finished...)
	switch p.kind {
	case kindRollback:
		open.Rollback, open.Started, open.Complete = c.SHA, c.Time, true
		return co.finish()
	case kindTask:
		open.Tasks = append(open.Tasks, p.task)
	default:
		open.Other = append(open.Other, c.SHA)
	}
	return false
}

// finish closes the open run; it reports whether the walk should stop.
func (co *collector) finish() bool {
	r := co.open
	co.open = nil
	slices.Reverse(r.Tasks)
	slices.Reverse(r.Other)
	if r.Skipped == nil {
		r.Skipped = []string{} // JSON: [] rather than null
	}
	durations(r)
	end := co.after != nil && co.after(r)
	if co.plan != "" && r.Plan != co.plan {
		return end
	}
	co.runs = append(co.runs, *r)
	return co.stop != nil && co.stop(&co.runs[len(co.runs)-1]) || end
}

// durations fills DurationMS from the committer time of the run's previous
// commit (the rollback commit for the first task).
func durations(r *Run) {
	prev := r.Started
	for i := range r.Tasks {
		t := &r.Tasks[i]
		if !prev.IsZero() {
			ms := t.Time.Sub(prev).Milliseconds()
			t.DurationMS = &ms
		}
		prev = t.Time
	}
}

// pager reads first-parent history in growing pages, so a recent run costs
// one or two git processes and an old one a handful, never the whole log.
type pager struct {
	repo *gitops.Repo
	from gitops.SHA // where the next page starts; "" at the root
	size int
	buf  []gitops.Commit
}

func (p *pager) next(ctx context.Context) (gitops.Commit, bool, error) {
	if len(p.buf) == 0 {
		if p.from == "" {
			return gitops.Commit{}, false, nil
		}
		cs, err := p.repo.History().Log(ctx, p.from, "", p.size)
		if err != nil {
			return gitops.Commit{}, false, err
		}
		p.from = ""
		if len(cs) == 0 {
			return gitops.Commit{}, false, nil
		}
		if ps := cs[len(cs)-1].Parents; len(ps) > 0 {
			p.from = ps[0]
		}
		p.buf, p.size = cs, min(p.size*4, 4096)
	}
	c := p.buf[0]
	p.buf = p.buf[1:]
	return c, true, nil
}
