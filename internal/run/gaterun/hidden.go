package gaterun

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/run/canary"
	"github.com/planx-dev/planx/internal/testreport"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// Hidden tests: tests the agent never saw (.planx.yaml's hidden_tests:, a
// directory outside the repository that the agent's task space hides),
// added to the judge's checkout of the task's tree only, after its gates
// passed there. The tests of a gate that are new beside the hidden files,
// against that gate's run on the same tree without them, are the hidden
// tests; each must pass, and nothing that passed without them may fail
// with them. The task's commit says how many ran and passed; a failure
// names the tests and says where their output is, never their source or
// output (the agent's next attempt is told the failure).

// HiddenRun is what a run with the hidden tests needs besides TestRuns.
type HiddenRun struct {
	Dir string // the hidden tests' directory, checked (gates.Config.HiddenDir)
	// Ref, when set, names the ref of the repository at Dir whose files
	// are the hidden tests (exported under Out for the run).
	Ref string
	// Out is where the run's outputs go: hidden from agents with the tests.
	Out string
}

// Hidden runs tgs on the task's tree (as staged) with the hidden tests
// added, in a clean checkout, grades each gate against its run on the
// same tree without them (the report the grader holds for the task), and
// returns each gate's summary for the commit (`test 3 ran, 3 passed`), or
// fails the task.
func (tr TestRuns) Hidden(ctx context.Context, tgs []TestGate, h HiddenRun) (map[string]string, error) {
	staged, err := tr.Repo.Index().StagedCommit(ctx, tr.Base)
	if err != nil {
		return nil, fmt.Errorf("the tree of %s for its hidden tests: %w", tr.Task.ID, err)
	}
	dir, release, err := tr.Checkout(ctx, staged, "hidden")
	if err != nil {
		return nil, err
	}
	defer release()
	without, err := tr.withoutHidden(ctx, tgs, dir, h.Out)
	if err != nil {
		return nil, err
	}
	src, drop, err := h.source(ctx, tr.Task.ID)
	if err != nil {
		return nil, err
	}
	defer drop()
	added, err := addHidden(src, dir)
	// The copies go before the checkout is given back, whatever happened:
	// a slot an agent may later run in must not keep them.
	defer removeHidden(dir, added)
	if err != nil {
		return nil, err
	}
	id := planparse.TaskID(string(tr.Task.ID) + "-hidden")
	run, _ := TestGates(GatesOf(tgs), h.Out, string(id))
	tr.Gates.Out.Println("      hidden tests: %s with %d hidden file(s) added", strings.Join(Names(run), ", "), len(added))
	cn := canary.New(tr.Changed)
	o := tr.Gates
	o.OutDir = h.Out
	results, err := o.Exec(ctx, Spec{Task: tr.Task, ID: id, Dir: dir, Gates: Adjusted(run), Track: true, Canaries: cn, TestGates: run,
		Begin: func(g gates.Gate) { o.Out.Phase(tr.Task.ID, "gate "+textsafe.Line(g.Name)+" with the hidden tests") }})
	if err != nil {
		return nil, err
	}
	out, total := map[string]string{}, 0
	for i, res := range results {
		rep := cn.Check(res.Name, run[i].Read(dir, res.OutputPath))
		ran, passed, err := hiddenVerdict(res, without[res.Name], rep)
		if err != nil {
			return nil, err
		}
		if ran > 0 {
			out[res.Name] = fmt.Sprintf("%s %d ran, %d passed", res.Name, ran, passed)
		}
		total += ran
	}
	if total == 0 {
		return nil, &outcome.Failure{What: fmt.Sprintf("hidden tests: none of the %d hidden file(s) ran a test in the gates %s: a hidden test that does not run proves nothing",
			len(added), strings.Join(Names(run), ", ")),
			Hint: "put the hidden tests where the gates' runners find tests, at the paths they would have in the repository"}
	}
	return out, nil
}

// source is the directory the hidden tests are copied from: Dir, or the
// files of Ref exported from the repository at Dir (under Out, hidden
// from agents; drop removes them).
func (h HiddenRun) source(ctx context.Context, id planparse.TaskID) (string, func(), error) {
	if h.Ref == "" {
		return h.Dir, func() {}, nil
	}
	tmp := filepath.Join(h.Out, "src-"+string(id))
	drop := func() { _ = os.RemoveAll(tmp) }
	drop()
	if _, err := gitops.ExportTree(ctx, h.Dir, h.Ref, tmp); err != nil {
		drop()
		return "", nil, fmt.Errorf("hidden tests: %w", err)
	}
	return tmp, drop, nil
}

// withoutHidden are the reports of tgs on the task's tree without the
// hidden tests, by gate: those the grader holds from the task's gates,
// and for a gate it holds none of (its result was reused from an earlier
// run on the same tree) a run in dir, before the hidden tests are added.
func (tr TestRuns) withoutHidden(ctx context.Context, tgs []TestGate, dir, outDir string) (map[string]testreport.Report, error) {
	out := map[string]testreport.Report{}
	var missing []gates.Gate
	for _, tg := range tgs {
		if rep, ok := tr.Grader.Reports.Held(tg.Key()); ok {
			out[tg.Name] = rep
		} else {
			missing = append(missing, tg.Gate)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	id := planparse.TaskID(string(tr.Task.ID) + "-unhidden")
	run, _ := TestGates(missing, outDir, string(id))
	o := tr.Gates
	o.OutDir = outDir
	results, err := o.Exec(ctx, Spec{Task: tr.Task, ID: id, Dir: dir, Gates: Adjusted(run), Track: true, TestGates: run})
	if err != nil {
		return nil, err
	}
	for i, res := range results {
		out[res.Name] = run[i].Read(dir, res.OutputPath)
	}
	return out, nil
}

// hiddenVerdict grades a gate's run with the hidden tests (now) against
// its run without them: the new tests are the hidden ones; it returns how
// many ran and passed, or the failure (the tests named, their output
// not shown).
func hiddenVerdict(res gates.Result, without, now testreport.Report) (ran, passed int, err error) {
	v := testreport.Judge(without, now, testreport.Options{})
	for _, t := range v.New {
		if t.Outcome == testreport.Pass {
			passed++
		}
	}
	ran = len(v.New)
	var bad []string
	for _, t := range v.New {
		if t.Outcome != testreport.Pass {
			bad = append(bad, testreport.Display(t)+" "+string(t.Outcome))
		}
	}
	for _, t := range append(append(slices.Clone(v.Broken), v.Vanished...), v.Skipped...) {
		bad = append(bad, testreport.Display(t)+" (a test of the repository) does not pass with them")
	}
	switch {
	case len(bad) > 0:
		slices.Sort(bad)
	case v.RunFailed || len(v.Canary) > 0:
		bad = []string{"the run with them shows a failure outside the tests (a hidden test that does not build against the task's code, a crash)"}
	default:
		return ran, passed, nil
	}
	return ran, passed, &outcome.Failure{
		What: fmt.Sprintf("gate %s with the hidden tests: %s", res.Name, strings.Join(bad, "; ")),
		Hint: fmt.Sprintf("the hidden tests' source and output are kept from the agent; the whole output is %s", res.OutputPath),
	}
}

// addHidden copies the files of the hidden tests' directory src into the
// checkout dir at the same relative paths (a path the tree has is
// replaced), and returns those it wrote. Symbolic links and the
// directory's own .git are left out.
func addHidden(src, dir string) ([]string, error) {
	var added []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		switch {
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case !d.Type().IsRegular():
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, rel)
		if _, err := os.Lstat(dst); err == nil {
			return &outcome.Failure{What: fmt.Sprintf("hidden tests: %s is a path the task's tree has: hidden tests are added beside the repository's files, never over them", filepath.ToSlash(rel))}
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		added = append(added, rel)
		return os.WriteFile(dst, b, 0o644)
	})
	var f *outcome.Failure
	if errors.As(err, &f) {
		return added, err
	}
	if err != nil {
		return added, fmt.Errorf("hidden tests: copy %s into the judge's checkout: %w", src, err)
	}
	if len(added) == 0 {
		return nil, &outcome.Failure{What: fmt.Sprintf("hidden tests: %s holds no file", src)}
	}
	return added, nil
}

// removeHidden takes the copies addHidden made out of the checkout.
func removeHidden(dir string, added []string) {
	for _, rel := range added {
		_ = os.Remove(filepath.Join(dir, rel)) // gone already is as good
	}
}
