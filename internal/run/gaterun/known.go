package gaterun

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/testreport"
	"github.com/planx-dev/planx/planparse"
)

// Known failures: the tests a run's baseline found failing and the run
// accepted (--accept-baseline-failures). A task's gate that fails with
// those tests alone passes with a warning; a gate that fails with any
// other test, or with a failure its tests do not account for (no test
// named, a build failure, a timeout), fails as usual. The names come from
// the gate's own report or output on the task's tree, and the known set
// was fixed before the first task ran: a task cannot add to it.

// Judgement is what the per-test judge (JudgeTests) made of a gate set's
// results: each gate's test summary, why it failed the first gate it
// failed that exited 0, the gates it let pass with known failures alone
// (gate name → their IDs), and those it did not let pass for all that.
type Judgement struct {
	tests map[string]string
	why   []string
	// whyGate is the gate why is about: the first the judge failed that
	// exited 0, or whose run had canaries (its output names them among
	// the failing tests, so the judge says why instead).
	whyGate string
	known   map[string][]string
	// vetoed says, by gate, why the judge failed a gate whose failing
	// tests are all known failures (a test vanished, one is skipped).
	vetoed map[string]string
	// fixed are, by gate, the tests that failed at the base and pass now
	// (the counterfactual run checks they fail again without the code).
	fixed map[string][]string
}

// Fixed are, by gate, the tests the task turned from failing at the base
// to passing, in the gates the judge passed.
func (jd Judgement) Fixed() map[string][]string { return jd.fixed }

// failedTests are the tests a failed gate's report (its report: setting)
// or output names as failing; whole is false when they are not the whole
// failure: none named, or a failure outside any test.
func failedTests(g gates.Gate, dir, out string) (fails []testreport.Test, whole bool) {
	if !g.Report.IsZero() && g.Report.Kind != gates.ReportNone {
		rep := TestGate{Gate: g, orig: g.Command, kind: g.Report.Kind}.Read(dir, out)
		for _, t := range rep.Tests {
			if t.Outcome == testreport.Fail {
				fails = append(fails, t)
			}
		}
		return fails, len(fails) > 0 && !rep.Failed
	}
	f := outputFailures(out)
	return f.Tests, len(f.Tests) > 0 && !f.Unaccounted
}

// testIDs are the sorted IDs of tests, each once.
func testIDs(tests []testreport.Test) []string {
	ids := make([]string, 0, len(tests))
	for _, t := range tests {
		ids = append(ids, t.ID)
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// knownOnly says a gate's report fails with the run's known failures
// alone, and names them: at least one test fails, every failing test
// failed on the base, and the report shows no failure outside its tests.
func knownOnly(b *runstate.Baseline, gate string, rep testreport.Report) ([]string, bool) {
	var fails []testreport.Test
	for _, t := range rep.Tests {
		if t.Outcome == testreport.Fail {
			fails = append(fails, t)
		}
	}
	ids := testIDs(fails)
	return ids, !rep.Failed && b.Covers(gate, ids)
}

// acceptKnown lets the failed gates of results pass whose failure is the
// baseline's alone, and returns, by gate, the known failures it let pass.
// A gate the per-test judge read is the judge's to decide (jd.known); the
// others are read here from their output. A timed-out gate is never let
// pass, nor one that exited 0 and failed by its report (the judge's why).
func (o Options) acceptKnown(t *planparse.Task, dir string, sel []gates.Gate, results []gates.Result, jd Judgement) map[string][]string {
	b := o.Baseline
	if b == nil {
		return nil
	}
	out := map[string][]string{}
	for i := range results {
		res := &results[i]
		if res.Passed || res.TimedOut || res.ExitCode == 0 {
			continue
		}
		ids, judged := jd.known[res.Name]
		if !judged && !judgedByTests(jd.tests[res.Name]) {
			fails, whole := failedTests(gateNamed(sel, res.Name), dir, res.OutputPath)
			ids, judged = testIDs(fails), whole
		}
		if !judged || !b.Covers(res.Name, ids) {
			continue
		}
		res.Passed = true
		out[res.Name] = ids
		hall.Warn(o.Desk, t.ID, fmt.Sprintf("gate %s failed (exit %d) with tests that failed on the base too, accepted as known failures (--accept-baseline-failures): %s",
			res.Name, res.ExitCode, strings.Join(ids, ", ")))
	}
	o.noteFixed(results, out)
	return out
}

// judgedByTests says a gate's Planx-Tests summary is the per-test judge's
// verdict, not "exit-code only".
func judgedByTests(summary string) bool {
	return summary != "" && !strings.HasPrefix(summary, "exit-code only")
}

// noteFixed says which known failures of the gates that passed do not fail
// now: good news (or tests the task's blast radius left out), not a
// problem.
func (o Options) noteFixed(results []gates.Result, accepted map[string][]string) {
	for _, res := range results {
		if !res.Passed {
			continue
		}
		var fixed []string
		for _, id := range o.Baseline.Known[res.Name] {
			if !slices.Contains(accepted[res.Name], id) {
				fixed = append(fixed, id)
			}
		}
		if len(fixed) > 0 {
			o.Out.Println("      gate %s: known failure(s) of the baseline that do not fail now: %s", res.Name, strings.Join(fixed, ", "))
		}
	}
}

// sortedGates are the gate names of known, sorted.
func sortedGates(known map[string][]string) []string {
	names := make([]string, 0, len(known))
	for name := range known {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// KnownList says a baseline's known failures: "test: calc TestDiv, calc
// TestSub; lint: x".
func KnownList(known map[string][]string) string {
	var parts []string
	for _, name := range sortedGates(known) {
		parts = append(parts, name+": "+strings.Join(known[name], ", "))
	}
	return strings.Join(parts, "; ")
}

// explainKnown says, in the failure of a gate a run with known failures
// did not let pass, which failing tests are not known: what the task must
// fix (or, with none named, why the known ones could not excuse it).
func (o Options) explainKnown(err error, dir string, sel []gates.Gate, results []gates.Result, jd Judgement) error {
	failed := gates.Failed(results)
	var f *outcome.Failure
	if o.Baseline == nil || len(failed) == 0 || !errors.As(err, &f) {
		return err
	}
	res := failed[0]
	if _, ok := o.Baseline.Known[res.Name]; !ok || res.TimedOut {
		return err
	}
	if why, ok := jd.vetoed[res.Name]; ok {
		f.What += "; its failing tests are known failures, but " + why
		return err
	}
	fails, whole := failedTests(gateNamed(sel, res.Name), dir, res.OutputPath)
	var fresh []string
	for _, id := range testIDs(fails) {
		if !slices.Contains(o.Baseline.Known[res.Name], id) {
			fresh = append(fresh, id)
		}
	}
	switch {
	case len(fresh) > 0:
		f.What += "; not among the baseline's known failures: " + strings.Join(fresh, ", ")
	case !whole:
		f.What += "; the tests it names do not account for its failure (none named, or a failure outside any test), so the baseline's known failures cannot excuse it"
	}
	return err
}

// BaselineFailures reads the failed gates of a baseline run in dir: by
// gate, the IDs of the failing tests its report or output names, and the
// gates whose failure the tests named do not account for (none named, a
// failure outside any test, a timeout), which no test can be accepted for.
func BaselineFailures(dir string, sel []gates.Gate, results []execlog.Gate) (known map[string][]string, unnamed []execlog.Gate) {
	known = map[string][]string{}
	for _, res := range results {
		if res.Passed {
			continue
		}
		fails, whole := failedTests(gateNamed(sel, res.Name), dir, res.OutputPath)
		if !whole || res.TimedOut {
			unnamed = append(unnamed, res)
			continue
		}
		known[res.Name] = testIDs(fails)
	}
	return known, unnamed
}

// gateNamed is the gate of sel called name; a gate of that name alone
// when there is none (an acceptance check).
func gateNamed(sel []gates.Gate, name string) gates.Gate {
	for _, g := range sel {
		if g.Name == name {
			return g
		}
	}
	return gates.Gate{Name: name}
}
