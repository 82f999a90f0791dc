package testreport

import (
	"fmt"
	"slices"
	"strings"
)

// Options says what a task may change about the tests.
type Options struct {
	// Declared reports whether the task declared a test file in the
	// group; a test of such a group that ran at the base may vanish
	// (the task may rename or rewrite its own tests). Nil declares none.
	Declared func(group string) bool
	// Targets are IDs of tests that must pass now (FAIL_TO_PASS).
	Targets []string
}

// Counts are a run's tests by outcome.
type Counts struct{ Passed, Failed, Skipped int }

// Verdict grades a run against its baseline. Each list is sorted by ID.
type Verdict struct {
	Broken []Test // passed at the base, fail now
	// Vanished ran at the base (passed or failed), absent now, group not
	// declared: a failing test that disappears (its file's process ended
	// before it ran) is no more fixed than one that still fails.
	Vanished []Test
	Skipped  []Test // passed at the base, skipped now
	// SkippedFailing failed at the base and are skipped now (or reported
	// as an expected failure): a test a task must fix counts only when it
	// is reported passed.
	SkippedFailing []Test
	TargetsFailing []Test // targets that do not pass now; an absent one has no Outcome

	Now        Counts
	New        []Test // absent at the base
	NewFailing []Test // absent at the base and failing now; reported, not judged
	Fixed      []Test // failed at the base, pass now

	RunFailed bool     // now.Failed: the run shows a failure no test accounts for
	Notes     []string // now's notes
	// Canary says how the judge's canary tests did not come out as
	// written (CanaryProblems): the report is not evidence.
	Canary []string
}

// Judge compares a run with its baseline, SWE-bench style: every test that
// passed at the base must pass now (PASS_TO_PASS) and every target must
// pass (FAIL_TO_PASS). Tests that failed at the base may still fail; a
// base that failed or ran nothing is fine, only now must be clean.
func Judge(base, now Report, opt Options) Verdict {
	v := Verdict{RunFailed: now.Failed, Notes: now.Notes}
	declared := opt.Declared
	if declared == nil {
		declared = func(string) bool { return false }
	}
	for _, t := range now.Tests {
		switch t.Outcome {
		case Pass:
			v.Now.Passed++
		case Fail:
			v.Now.Failed++
		case Skip:
			v.Now.Skipped++
		}
		b, ok := base.Lookup(t.ID)
		switch {
		case !ok:
			v.New = append(v.New, t)
			if t.Outcome == Fail {
				v.NewFailing = append(v.NewFailing, t)
			}
		case b.Outcome == Fail && t.Outcome == Pass:
			v.Fixed = append(v.Fixed, t)
		case b.Outcome == Pass && t.Outcome == Fail:
			v.Broken = append(v.Broken, t)
		case b.Outcome == Pass && t.Outcome == Skip:
			v.Skipped = append(v.Skipped, t)
		case b.Outcome == Fail && t.Outcome == Skip:
			v.SkippedFailing = append(v.SkippedFailing, t)
		}
	}
	// A test of a group the task declared a test file of may vanish when
	// it passed at the base (the task rewrote its own tests); one that
	// failed there is a test to fix, and a test that no longer runs is
	// not fixed.
	for _, b := range base.Tests {
		if _, ok := now.Lookup(b.ID); !ok && b.Outcome != Skip && (b.Outcome == Fail || !declared(b.Group)) {
			v.Vanished = append(v.Vanished, b)
		}
	}
	v.Canary = CanaryProblems(base, now)
	targets := slices.Clone(opt.Targets)
	slices.Sort(targets)
	for _, id := range slices.Compact(targets) {
		t, ok := now.Lookup(id)
		if !ok {
			t = Test{ID: id}
		}
		if t.Outcome != Pass {
			v.TargetsFailing = append(v.TargetsFailing, t)
		}
	}
	return v
}

// OK reports whether the run passes: nothing that passed at the base
// fails, vanished or is skipped, every target passes, at least one test
// ran, and the run shows no failure outside its tests.
func (v Verdict) OK() bool {
	return len(v.Broken) == 0 && len(v.Vanished) == 0 && len(v.Skipped) == 0 && len(v.SkippedFailing) == 0 &&
		len(v.TargetsFailing) == 0 && len(v.Canary) == 0 && v.Now.Passed+v.Now.Failed > 0 && !v.RunFailed
}

// Summary is a one-line account of the run for a commit trailer, such as
// "214 passed (+3 new) 1 failed 0 skipped; 2 fixed; 1 broken".
func (v Verdict) Summary() string {
	newPassing := 0
	for _, t := range v.New {
		if t.Outcome == Pass {
			newPassing++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d passed", v.Now.Passed)
	if newPassing > 0 {
		fmt.Fprintf(&b, " (+%d new)", newPassing)
	}
	fmt.Fprintf(&b, " %d failed", v.Now.Failed)
	if len(v.NewFailing) > 0 {
		fmt.Fprintf(&b, " (+%d new)", len(v.NewFailing))
	}
	fmt.Fprintf(&b, " %d skipped", v.Now.Skipped)
	for _, part := range []struct {
		n    int
		what string
	}{
		{len(v.Fixed), "fixed"},
		{len(v.Broken), "broken"},
		{len(v.Vanished), "vanished"},
		{len(v.Skipped), "newly skipped"},
		{len(v.SkippedFailing), "skipped instead of fixed"},
		{len(v.Canary), "canary places wrong"},
		{len(v.TargetsFailing), "targets failing"},
	} {
		if part.n > 0 {
			fmt.Fprintf(&b, "; %d %s", part.n, part.what)
		}
	}
	if v.RunFailed {
		b.WriteString("; run failed")
	}
	return b.String()
}

// shown is how many tests of each problem Reasons names.
const shown = 3

// Reasons says in sentences why the run does not pass, naming the first
// few tests of each problem; it is empty when OK.
func (v Verdict) Reasons() []string {
	var out []string
	add := func(tests []Test, say func(Test) string, more string) {
		for i, t := range tests {
			if i == shown {
				out = append(out, fmt.Sprintf("%d more tests %s", len(tests)-shown, more))
				break
			}
			out = append(out, say(t))
		}
	}
	add(v.Broken, func(t Test) string { return Display(t) + " passed at the base and fails now" }, "passed at the base and fail now")
	add(v.Vanished, func(t Test) string { return Display(t) + " ran at the base and did not run now" }, "ran at the base and did not run now")
	add(v.Skipped, func(t Test) string { return Display(t) + " passed at the base and is skipped now" }, "passed at the base and are skipped now")
	add(v.SkippedFailing, func(t Test) string {
		return Display(t) + " failed at the base and is skipped now: a test to fix counts only when it passes"
	}, "failed at the base and are skipped now")
	out = append(out, v.Canary...)
	add(v.TargetsFailing, func(t Test) string {
		if t.Outcome == "" {
			return "the target " + Display(t) + " did not run"
		}
		return fmt.Sprintf("the target %s must pass and is %s", Display(t), map[Outcome]string{Fail: "failing", Skip: "skipped"}[t.Outcome])
	}, "of the targets do not pass")
	if v.Now.Passed+v.Now.Failed == 0 {
		out = append(out, "no test ran")
	}
	if v.RunFailed {
		why := "the report says so"
		if len(v.Notes) > 0 {
			why = v.Notes[0]
		}
		out = append(out, "the test run failed outside any test: "+why)
	}
	return out
}

// Display names a test for a person: "TestSub (example.com/calc)", the
// group in brackets after the rest of the ID.
func Display(t Test) string {
	if t.Group == "" || t.ID == t.Group {
		return t.ID
	}
	for _, sep := range []string{" ", ".", "/", "::"} {
		if rest, ok := strings.CutPrefix(t.ID, t.Group+sep); ok && rest != "" {
			return rest + " (" + t.Group + ")"
		}
	}
	return t.ID + " (" + t.Group + ")"
}
