package gaterun

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/proc"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/run/canary"
	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/testreport"
	"github.com/planx-dev/planx/planparse"
)

// Options are what every gate run of a planx run shares: where the
// output goes, the gates' environment, the known failures, and how to
// warn. The executor builds them once per run.
type Options struct {
	Root   string   // the repository's root: paths in failures are shown relative to it
	OutDir string   // the run's directory: each gate's whole output goes there
	Env    []string // the gates' environment
	Out    *progress.Progress
	// Pids track a gate's process group for the reaping of orphans after
	// a crash; a Spec with Track uses them (one gate at a time: the
	// serial path's runs).
	Pids proc.Pids
	// Baseline holds the run's known failures; nil without a baseline.
	Baseline *runstate.Baseline
	// Desk records a warning in the run's log and says it. A run tells
	// it while it holds Lock, when set: it must not take Lock itself.
	Desk hall.Desk
	// Overridden are the gates a --gate flag replaced: their records say
	// so, for verify to tell a gate weakened on the command line.
	Overridden map[string]bool
	// Lock, when set, is held while results are judged, recorded and
	// shown: a wave runs several tasks' gates at once.
	Lock sync.Locker
	// Home is the user's work tree: gates run there as they are; anywhere
	// else (a checkout, a slot) in a judge's space of Spaces (space.go).
	Home   string
	Spaces *Spaces
}

// Spec is one run of a gate selection.
type Spec struct {
	Task  *planparse.Task  // whose gates: its blast radius, the warnings' task
	ID    planparse.TaskID // names the output files; Task.ID when empty
	Dir   string           // where the gates run
	Gates []gates.Gate
	Live  bool // copy the output to the live view
	Track bool // report the gates' processes to Pids
	// Begin is called as each gate starts, for the progress view.
	Begin func(g gates.Gate)
	// Grade, when set, reads the results of TestGates test by test
	// (JudgeTests): it may fail a gate that exited 0.
	Grade *Grading
	// Canaries, when set, are planted in Dir around each of TestGates as
	// it runs (package canary).
	Canaries  *canary.Set
	TestGates []TestGate
}

// Outcome is what a gate run came to.
type Outcome struct {
	Results []gates.Result // as judged, known failures let pass
	// Exited are the results as the gates ended and the judge read them,
	// before known failures let any pass: the tree's record keeps what a
	// gate exited.
	Exited []gates.Result
	// Judged is what Spec.Grade read (zero without one).
	Judged Judgement
	Gates  []execlog.Gate // the log's records of Results
	// Failure is the task's failure (an *outcome.Failure) when a gate
	// did not pass, else nil.
	Failure error
}

// Exec runs the gates of s and returns their results: the one place a
// run's gates are started. Its error is for gates that could not run
// (an interruption); the results then hold those run so far.
func (o Options) Exec(ctx context.Context, s Spec) ([]gates.Result, error) {
	id := s.ID
	if id == "" {
		id = s.Task.ID
	}
	ro := gates.RunOptions{Dir: s.Dir, Env: o.Env, OutDir: o.OutDir, Task: id,
		BlastRadius: s.Task.BlastRadius, Begin: s.Begin}
	flush := func() {}
	if s.Live {
		ro.Live, flush = o.Out.Live(id)
	}
	if s.Track {
		ro.Started = o.Pids.Started()
	}
	ro.Prepare = s.Canaries.Prepare(s.Dir, canaryGates(s.TestGates))
	spaces := o.Spaces
	if o.Home == "" || sameDir(s.Dir, o.Home) {
		spaces = nil
	}
	reports, err := reportDirs(s.TestGates)
	if err != nil {
		flush()
		return nil, fmt.Errorf("gates of %s: %w", id, err)
	}
	sp, closeSpace, err := spaces.open(s.Dir, o.Home, id, o.Out, reports)
	if err != nil {
		flush()
		return nil, err
	}
	defer closeSpace()
	if sp != nil {
		ro.Wrap = sp.Wrap
	}
	results, err := gates.Run(ctx, s.Gates, ro)
	if sp != nil && len(results) > 0 && err == nil {
		if serr := sp.SetupError(); serr != nil {
			err = fmt.Errorf("gates of %s: %w", id, serr)
		}
	}
	flush()
	if s.Track {
		o.Pids.ChildDone()
	}
	return results, err
}

// Run runs the gates of s and reads their results: the judge's verdicts,
// the known failures of the baseline (a gate that failed with those alone
// passes, known.go), the log's records, each gate's line of output, and
// the task's failure on the first gate that did not pass.
func (o Options) Run(ctx context.Context, s Spec) (Outcome, error) {
	if len(s.Gates) == 0 {
		return Outcome{}, nil
	}
	results, err := o.Exec(ctx, s)
	if err != nil {
		return Outcome{Results: results}, err
	}
	if o.Lock != nil {
		o.Lock.Lock()
		defer o.Lock.Unlock()
	}
	var jd Judgement
	if s.Grade != nil {
		jd = s.Grade.judge(s.Dir, s.TestGates, results, s.Canaries)
	}
	exited := slices.Clone(results)
	known := o.acceptKnown(s.Task, s.Dir, s.Gates, results, jd)
	out := Outcome{Results: results, Exited: exited, Judged: jd}
	for _, g := range results {
		out.Gates = append(out.Gates, execlog.Gate{Name: g.Name, Command: g.Command, Passed: g.Passed,
			ExitCode: g.ExitCode, Duration: g.Duration, Tail: g.Tail, OutputPath: g.OutputPath,
			TimedOut: g.TimedOut, Overridden: o.Overridden[g.Name], Tests: jd.tests[g.Name], Known: known[g.Name]})
		o.Out.Gate(s.Task.ID, g)
	}
	if failed := gates.Failed(results); len(failed) > 0 && !failed[0].TimedOut && jd.whyGate == failed[0].Name && len(jd.why) > 0 {
		out.Failure = &outcome.Failure{What: jd.why[0], Tail: strings.Join(jd.why[1:], "\n")}
		return out, nil
	}
	out.Failure = o.explainKnown(gateFailure(o.Root, results), s.Dir, s.Gates, results, jd)
	return out, nil
}

// Grading is how a run of a task's test gates is read test by test: by
// Grader, against the base's reports, and after the agent's own test
// changes were graded apart (Apart, TestRuns.Apart's summaries; nil when
// they were not), which this run then only has to pass with.
type Grading struct {
	Grader Grader
	Base   map[string]testreport.Report
	Apart  map[string]string
}

// judge reads results of tgs in dir (cn: the canaries planted there, nil
// for none), marking the gates graded apart whose run with the task's own
// tests passed too.
func (g *Grading) judge(dir string, tgs []TestGate, results []gates.Result, cn *canary.Set) Judgement {
	jd := g.Grader.JudgeTests(dir, tgs, g.Base, results, g.Apart != nil, cn)
	for name, s := range g.Apart {
		jd.tests[name] = s + "; own tests pass"
	}
	return jd
}

// sameDir says a and b name the same directory.
func sameDir(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}
