package gaterun

import (
	"context"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/run/canary"
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
	cn := canary.New(tr.Changed)
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
	jr, release, err := tr.runWith(ctx, tgs, paths, judgeRunHow{label: "judge", base: base,
		tree:  "planx: the task's tree with the base's tests",
		say:   fmt.Sprintf("judge: %%s with the base's tests (%s left as the base has them)", strings.Join(paths, ", ")),
		phase: "without the task's test files"})
	if err != nil {
		return nil, err
	}
	defer release()
	return tr.Grader.JudgeApart(jr.dir, jr.run, base, jr.results, paths, jr.cn)
}

// judgeRunHow says how a run of the judge on the task's tree with some of
// its paths as the base has them is named: the checkout's label (and the
// run's output files' suffix), the tree's commit message, the line that
// announces it (%s: the gates) and the phase each gate shows.
type judgeRunHow struct {
	label, tree, say, phase string
	base                    map[string]testreport.Report // the base's reports: the canaries' namesakes (Named)
}

// judgeRun is a run of the judge's gates in a checkout, its canaries and
// results, to be read before the checkout is given back.
type judgeRun struct {
	dir     string
	run     []TestGate
	results []gates.Result
	cn      *canary.Set
}

// runWith runs tgs on the task's tree (as staged) with paths as the base
// has them, in a clean checkout, with canaries; release gives the checkout
// back once its results are read.
func (tr TestRuns) runWith(ctx context.Context, tgs []TestGate, paths []string, how judgeRunHow) (judgeRun, func(), error) {
	c, err := tr.withBase(ctx, paths, how.label, how.tree)
	if err != nil {
		return judgeRun{}, nil, err
	}
	dir, release, err := tr.Checkout(ctx, c, how.label)
	if err != nil {
		return judgeRun{}, nil, err
	}
	id := planparse.TaskID(string(tr.Task.ID) + "-" + how.label)
	run, _ := TestGates(GatesOf(tgs), tr.Gates.OutDir, string(id))
	tr.Gates.Out.Println("      "+how.say, strings.Join(Names(run), ", "))
	cn := canary.New(tr.Changed).Named(how.base)
	results, err := tr.Gates.Exec(ctx, Spec{Task: tr.Task, ID: id, Dir: dir, Gates: Adjusted(run), Track: true,
		Canaries: cn, TestGates: run,
		Begin: func(g gates.Gate) { tr.Gates.Out.Phase(tr.Task.ID, "gate "+textsafe.Line(g.Name)+" "+how.phase) }})
	if err != nil {
		release()
		return judgeRun{}, nil, err
	}
	return judgeRun{dir: dir, run: run, results: results, cn: cn}, release, nil
}

// withBase makes the commit of the task's tree (as staged) with paths as
// the base has them, with message msg, for the judge's run label.
func (tr TestRuns) withBase(ctx context.Context, paths []string, label, msg string) (gitops.SHA, error) {
	staged, err := tr.Repo.Index().StagedCommit(ctx, tr.Base)
	if err != nil {
		return "", fmt.Errorf("the %s tree of %s: %w", label, tr.Task.ID, err)
	}
	c, err := tr.Repo.Objects().TreeFromBase(ctx, staged, tr.Base, paths, msg)
	if err != nil {
		return "", fmt.Errorf("the %s tree of %s: %w", label, tr.Task.ID, err)
	}
	return c, nil
}
