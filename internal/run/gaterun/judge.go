package gaterun

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/judge"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/run/canary"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/testreport"
	"github.com/planx-dev/planx/planparse"
)

// Grader grades the reports of test gates against their baselines.
type Grader struct {
	Baseline *runstate.Baseline // the run's known failures; nil without a baseline
	// Reports holds what JudgeTests read until the task's commit.
	Reports *Reports
	// Declared are the test files the task declared: a test of a group
	// of theirs may vanish (DeclaredTests.Group).
	Declared DeclaredTests
	// Changes name the tests whose base assertions the plan says the
	// task changes (Changes tests:): the run of the tests in their base
	// form does not hold the task to them.
	Changes []string
}

// JudgeTests grades the results of tgs against their baselines, marking a
// gate whose tests say no as failed. It returns each gate's summary (for
// Planx-Tests), the reasons of the first that failed, and the gates whose
// only failing tests are the run's known failures (known.go). cn are the
// canaries planted for the run (nil: none).
//
// own says the run holds the agent's own test changes, already graded
// without them by TestRuns.Apart: this run then only has to pass.
func (gr Grader) JudgeTests(dir string, tgs []TestGate, base map[string]testreport.Report, results []gates.Result, own bool, cn *canary.Set) Judgement {
	jd := Judgement{tests: map[string]string{}, known: map[string][]string{}, vetoed: map[string]string{}, fixed: map[string][]string{}}
	opt := testreport.Options{Declared: gr.Declared.Group}
	for i := range results {
		res := &results[i]
		j := slices.IndexFunc(tgs, func(tg TestGate) bool { return tg.Name == res.Name })
		if j < 0 {
			continue
		}
		rep := cn.Check(res.Name, tgs[j].Read(dir, res.OutputPath))
		gr.Reports.Hold(tgs[j].Key(), rep)
		if !tgs[j].Declared() && noReport(base[res.Name]) && noReport(rep) {
			jd.tests[res.Name] = "exit-code only (the runner gave no report, at the base either)"
			continue
		}
		v := testreport.Judge(base[res.Name], rep, opt)
		jd.tests[res.Name] = summary(v, rep)
		ids, onlyKnown := knownOnly(gr.Baseline, res.Name, rep)
		why := forcedExit(tgs[j], *res, rep)
		if why == "" && (own && (v.Now.Failed == 0 || onlyKnown) && !v.RunFailed && v.Now.Passed > 0 && len(v.Canary) == 0 ||
			!own && v.OK() && (v.Now.Failed == 0 || onlyKnown)) {
			if v.Now.Failed > 0 {
				jd.known[res.Name] = ids
			} else if rep.CanariesRan() {
				res.Passed = true // it exited non-zero: the canaries failed, as written
			}
			for _, t := range v.Fixed {
				jd.fixed[res.Name] = append(jd.fixed[res.Name], t.ID)
			}
			continue
		}
		if r := reportReasons(v, rep); onlyKnown && len(r) > 0 {
			jd.vetoed[res.Name] = r[0]
		}
		if (res.Passed || len(rep.Canaries) > 0) && jd.why == nil {
			jd.why, jd.whyGate = gateWhy(*res, v, rep, why), res.Name
		}
		res.Passed = false
	}
	return jd
}

// summary is a gate's Planx-Tests: the verdict's, and whether canaries
// ran beside the tests.
func summary(v testreport.Verdict, rep testreport.Report) string {
	if rep.CanariesRan() {
		return v.Summary() + "; canaries ok"
	}
	return v.Summary()
}

// forcedExit says why the run's exit code cannot be the runner's: its
// canaries failed as written, yet it exited 0 (code under test ended the
// process with a code of its own choosing). A gate with a report: setting
// may exit 0 on failing tests by design, and says nothing here.
func forcedExit(tg TestGate, res gates.Result, rep testreport.Report) string {
	if tg.Declared() || !rep.CanariesRan() || res.ExitCode != 0 || res.TimedOut {
		return ""
	}
	return fmt.Sprintf("gate %s exited 0 though the canary tests planx added to its run failed as written: the exit code is not its runner's", res.Name)
}

// gateWhy says why a gate failed by its report: what the judge found, the
// failing tests (never the canaries), led by why the exit code does not
// count.
func gateWhy(res gates.Result, v testreport.Verdict, rep testreport.Report, forced string) []string {
	why := append(reportReasons(v, rep), failingTests(rep)...)
	if forced != "" {
		return append([]string{forced}, why...)
	}
	if len(why) == 0 {
		why = []string{"the report shows a failure"}
	}
	if res.ExitCode == 0 {
		return append([]string{fmt.Sprintf("gate %s exited 0, but its tests say no", res.Name)}, why...)
	}
	return append([]string{fmt.Sprintf("gate %s failed (exit %d): %s", res.Name, res.ExitCode, why[0])}, why[1:]...)
}

// DeclaredTests are the test files a task declared, and the Go module
// path of the repository's go.mod, which Go's groups are named after (""
// without one). The zero DeclaredTests declares none.
type DeclaredTests struct {
	module string
	files  []string
}

// Declared are the test files among the files a task declared.
func Declared(module string, declared []planparse.File) DeclaredTests {
	d := DeclaredTests{module: module}
	for _, f := range declared {
		if judge.IsTestFile(f.Path) {
			d.files = append(d.files, f.Path)
		}
	}
	return d
}

// Group reports whether the task declared a test file of a report's
// group (a Go package, a Python module, a file): a test of that group may
// vanish, since the task may rewrite its own tests.
func (d DeclaredTests) Group(group string) bool {
	if group == "" {
		return len(d.files) > 0 // a runner that names no group (node's TAP)
	}
	for _, f := range d.files {
		dir := path.Dir(f)
		mod := strings.ReplaceAll(strings.TrimSuffix(f, path.Ext(f)), "/", ".")
		switch {
		case group == f, group == dir, group == mod, strings.HasPrefix(group, mod+"."):
			return true
		case d.module != "" && (group == d.module && dir == "." || group == d.module+"/"+dir):
			return true
		}
	}
	return false
}

// JudgeApart grades the run of tgs on the task's tree with paths (test
// files it did not declare) as the base has them, in dir. The summaries
// it returns are the task's Planx-Tests; a failing grade fails the task.
func (gr Grader) JudgeApart(dir string, run []TestGate, base map[string]testreport.Report, results []gates.Result, paths []string, cn *canary.Set) (map[string]string, error) {
	summaries := map[string]string{}
	opt := testreport.Options{Declared: gr.Declared.Group}
	for i, res := range results {
		rep := cn.Check(res.Name, run[i].Read(dir, res.OutputPath))
		b, changed := withoutChanged(base[res.Name], gr.Changes)
		rep, _ = withoutChanged(rep, gr.Changes)
		v := testreport.Judge(b, rep, opt)
		summaries[res.Name] = summary(v, rep)
		if len(changed) > 0 {
			summaries[res.Name] += "; changed by the plan: " + strings.Join(changed, ", ")
		}
		if !run[i].Declared() && noReport(base[res.Name]) && noReport(rep) && res.Passed {
			summaries[res.Name] = "exit-code only (the runner gave no report, at the base either)"
			continue
		}
		// With canaries a run exits non-zero by design: theirs fail.
		passed := res.Passed || rep.CanariesRan() && res.ExitCode != 0 && !res.TimedOut
		forced := forcedExit(run[i], res, rep)
		if _, onlyKnown := knownOnly(gr.Baseline, res.Name, rep); forced == "" && v.OK() && (v.Now.Failed == 0 && passed || onlyKnown) {
			continue
		}
		why := append(reportReasons(v, rep), failingTests(rep)...)
		if forced != "" {
			why = append([]string{forced}, why...)
		}
		if len(why) == 0 {
			why = []string{fmt.Sprintf("it exited %d", res.ExitCode)}
		}
		return nil, &outcome.Failure{
			What: fmt.Sprintf("gate %s fails with the tests as the base has them (%s left as the base has them): %s",
				res.Name, strings.Join(paths, ", "), why[0]),
			Tail: strings.Join(why[1:], "\n"),
			Hint: "what a test asserted at the base must still hold against the task's code; when the task changes it on purpose, name the test under the task in the plan (`Changes tests: TestX`)",
		}
	}
	return summaries, nil
}

// withoutChanged is rep without the tests changes names (Grader.Changes),
// and the IDs it left out.
func withoutChanged(rep testreport.Report, changes []string) (testreport.Report, []string) {
	if len(changes) == 0 {
		return rep, nil
	}
	var kept []testreport.Test
	var out []string
	for _, t := range rep.Tests {
		if slices.ContainsFunc(changes, func(c string) bool { return NamesTest(t.ID, c) }) {
			out = append(out, t.ID)
			continue
		}
		kept = append(kept, t)
	}
	rep.Tests = kept
	return rep, out
}

// NamesTest says the name a plan gives (TestSub, test_sub,
// TestCalc.test_sub, "adds two numbers") names the test whose report ID
// is id, or a test it holds (a subtest): the whole ID, or its end after a
// separator the runners use (a space, ".", "/", "::", " > ").
func NamesTest(id, name string) bool {
	name = strings.TrimSpace(name)
	if name == "" {
		return false
	}
	for _, sep := range []string{"", " ", ".", "/", "::", " > "} {
		if sep == "" {
			if id == name || strings.HasPrefix(id, name+"/") {
				return true
			}
			continue
		}
		if strings.HasSuffix(id, sep+name) || strings.Contains(id, sep+name+"/") {
			return true
		}
	}
	return false
}
