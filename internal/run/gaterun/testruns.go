package gaterun

import (
	"context"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/testreport"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// TestRuns are the runs of a task's test gates besides its own: on the
// base commit, for the baseline its reports are graded against, and on
// the task's tree with the test files it did not declare as the base has
// them. Both run in a clean checkout that Checkout provides.
type TestRuns struct {
	Gates  Options
	Grader Grader
	Task   *planparse.Task
	Repo   *gitops.Repo
	Base   gitops.SHA // the commit the task started from
	// Changed are the files the task changed: node canaries import its
	// sources.
	Changed []string
	// Checkout checks commit sha out for the judge (label: base, judge)
	// and returns the directory and how to give it back.
	Checkout func(ctx context.Context, sha gitops.SHA, label string) (dir string, release func(), err error)
}

// Baseline returns the reports of tgs on the base commit: from the book,
// or by running them in a clean checkout of it.
func (tr TestRuns) Baseline(ctx context.Context, tgs []TestGate) (map[string]testreport.Report, error) {
	base, book := tr.Base, tr.Grader.Reports
	out := map[string]testreport.Report{}
	var missing []TestGate
	for _, tg := range tgs {
		if rep, ok := book.Get(base, tg.Key()); ok {
			out[tg.Name] = rep
		} else {
			missing = append(missing, tg)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	dir, release, err := tr.Checkout(ctx, base, "base")
	if err != nil {
		return nil, err
	}
	defer release()
	id := planparse.TaskID(string(tr.Task.ID) + "-base")
	bases, _ := TestGates(GatesOf(missing), tr.Gates.OutDir, string(id))
	tr.Gates.Out.Println("      baseline: %s on the base commit %s", strings.Join(Names(bases), ", "), base.Short())
	cn := NewCanaries(tr.Changed)
	results, err := tr.Gates.Exec(ctx, Spec{Task: tr.Task, ID: id, Dir: dir, Gates: Adjusted(bases), Track: true,
		Canaries: cn, TestGates: bases,
		Begin: func(g gates.Gate) { tr.Gates.Out.Phase(tr.Task.ID, "gate "+textsafe.Line(g.Name)+" at the base") }})
	if err != nil {
		return nil, err
	}
	for i, res := range results {
		rep := cn.Check(res.Name, bases[i].Read(dir, res.OutputPath))
		book.Put(base, bases[i].Key(), rep)
		out[res.Name] = rep
	}
	return out, nil
}

// Apart runs tgs on the task's tree (as staged) with paths, the test files
// it did not declare, as the base has them, in a clean checkout, and
// grades the run against the base (JudgeApart). The summaries it returns
// are the task's Planx-Tests; a failing grade fails the task.
func (tr TestRuns) Apart(ctx context.Context, tgs []TestGate, base map[string]testreport.Report, paths []string) (map[string]string, error) {
	staged, err := tr.Repo.Index().StagedCommit(ctx, tr.Base)
	if err != nil {
		return nil, fmt.Errorf("the judge's tree of %s: %w", tr.Task.ID, err)
	}
	c, err := tr.Repo.Objects().TreeFromBase(ctx, staged, tr.Base, paths, "planx: the task's tree with the base's tests")
	if err != nil {
		return nil, fmt.Errorf("the judge's tree of %s: %w", tr.Task.ID, err)
	}
	dir, release, err := tr.Checkout(ctx, c, "judge")
	if err != nil {
		return nil, err
	}
	defer release()
	id := planparse.TaskID(string(tr.Task.ID) + "-judge")
	run, _ := TestGates(GatesOf(tgs), tr.Gates.OutDir, string(id))
	tr.Gates.Out.Println("      judge: %s with the base's tests (%s left as the base has them)", strings.Join(Names(run), ", "), strings.Join(paths, ", "))
	cn := NewCanaries(tr.Changed)
	results, err := tr.Gates.Exec(ctx, Spec{Task: tr.Task, ID: id, Dir: dir, Gates: Adjusted(run), Track: true,
		Canaries: cn, TestGates: run,
		Begin: func(g gates.Gate) {
			tr.Gates.Out.Phase(tr.Task.ID, "gate "+textsafe.Line(g.Name)+" without the task's test files")
		}})
	if err != nil {
		return nil, err
	}
	return tr.Grader.JudgeApart(dir, run, base, results, paths, cn)
}
