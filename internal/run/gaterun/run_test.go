package gaterun

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/planparse"
)

// warnings is a hall.Desk that keeps what it records.
type warnings struct{ issues *[]string }

func (w warnings) Issue(_ planparse.TaskID, msg, _ string) { *w.issues = append(*w.issues, msg) }
func (w warnings) Say(planparse.TaskID, string)            {}
func (w warnings) Ask(string) bool                         { return false }
func (w warnings) Save() error                             { return nil }
func (w warnings) Now() time.Time                          { return time.Time{} }

// gateOptions are Options for a run in a temporary directory, its output
// in out and its warnings in warned.
func gateOptions(t *testing.T, out *bytes.Buffer, warned *[]string) Options {
	dir := t.TempDir()
	return Options{Root: dir, OutDir: filepath.Join(dir, "run"), Out: progress.New(progress.Output{Out: out}),
		Desk:       warnings{warned},
		Overridden: map[string]bool{"lint": true}}
}

// Run records every gate, says each, gives the results as the gates
// exited (Exited), and fails the task on the first gate that failed, saying
// where its whole output is and how to run it again.
func TestRunRecordsAndFails(t *testing.T) {
	var out bytes.Buffer
	var warned []string
	o := gateOptions(t, &out, &warned)
	task := &planparse.Task{ID: "T001"}
	res, err := o.Run(context.Background(), Spec{Task: task, Dir: o.Root,
		Gates: []gates.Gate{{Name: "lint", Command: "true"}, {Name: "test", Command: "echo boom; exit 3"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Gates) != 2 || !res.Gates[0].Passed || !res.Gates[0].Overridden || res.Gates[1].Passed || res.Gates[1].ExitCode != 3 {
		t.Fatalf("records = %+v", res.Gates)
	}
	if recorded := res.Exited; len(recorded) != 2 || recorded[1].Passed {
		t.Errorf("exited %+v", recorded)
	}
	var f *outcome.Failure
	if !errors.As(res.Failure, &f) || f.What != "gate test failed (exit 3)" || !strings.Contains(f.Tail, "boom") {
		t.Fatalf("failure = %v", res.Failure)
	}
	if want := "run it again at the repository root: echo boom; exit 3"; f.See[len(f.See)-1] != want || !strings.HasPrefix(f.See[0], "whole output: run/T001-test") {
		t.Errorf("see = %q", f.See)
	}
	if !strings.Contains(out.String(), "test") || len(warned) != 0 {
		t.Errorf("output %q, warnings %q", out.String(), warned)
	}
}

// A gate that fails with the baseline's known failures alone passes, with
// a warning; its record names them. One with a new failing test fails and
// says which test is new.
func TestRunKnownFailures(t *testing.T) {
	var out bytes.Buffer
	var warned []string
	o := gateOptions(t, &out, &warned)
	o.Baseline = &runstate.Baseline{Known: map[string][]string{"known": {"calc TestSub"}, "fresh": {"calc TestSub"}}}
	goFail := func(names ...string) string {
		s := "printf '%s\\n'"
		for _, n := range names {
			s += " '--- FAIL: " + n + " (0.00s)'"
		}
		return s + " FAIL 'FAIL\tcalc\t0.01s'; exit 1"
	}
	task := &planparse.Task{ID: "T002"}
	res, err := o.Run(context.Background(), Spec{Task: task, Dir: o.Root,
		Gates: []gates.Gate{{Name: "known", Command: goFail("TestSub")}}})
	if err != nil || res.Failure != nil {
		t.Fatalf("known failures alone: %v, %v", err, res.Failure)
	}
	if !res.Gates[0].Passed || !slices.Equal(res.Gates[0].Known, []string{"calc TestSub"}) || len(warned) != 1 {
		t.Errorf("record %+v, warnings %q", res.Gates[0], warned)
	}
	if res.Exited[0].Passed || !res.Results[0].Passed {
		t.Errorf("exited %+v, results %+v: a known failure passes, yet the tree's record keeps that it failed", res.Exited, res.Results)
	}
	res, err = o.Run(context.Background(), Spec{Task: task, Dir: o.Root,
		Gates: []gates.Gate{{Name: "fresh", Command: goFail("TestSub", "TestAdd")}}})
	var f *outcome.Failure
	if err != nil || !errors.As(res.Failure, &f) || !strings.HasSuffix(f.What, "; not among the baseline's known failures: calc TestAdd") {
		t.Errorf("a new failure: %v, %v", err, res.Failure)
	}
}

// The judge may fail a gate that exited 0: its reasons are the failure,
// and what it read is the outcome's.
func TestRunJudgeFailsAnExitZero(t *testing.T) {
	var out bytes.Buffer
	var warned []string
	o := gateOptions(t, &out, &warned)
	junit := `<testsuite name="calc"><testcase classname="calc" name="adds"/><testcase classname="calc" name="subs"><failure/></testcase></testsuite>`
	sel := []gates.Gate{{Name: "test", Command: "printf '%s' '" + junit + "' > r.xml",
		Report: gates.Report{Kind: gates.ReportJUnit, Files: "r.xml"}}}
	tgs, _ := TestGates(sel, o.OutDir, "T003")
	grade := &Grading{Grader: Grader{Reports: NewReports(o.OutDir)}, Apart: map[string]string{"test": "graded apart"}}
	res, err := o.Run(context.Background(), Spec{Task: &planparse.Task{ID: "T003"}, Dir: o.Root,
		Gates: sel, TestGates: tgs, Grade: grade})
	var f *outcome.Failure
	if err != nil || !errors.As(res.Failure, &f) || f.What != "gate test exited 0, but its tests say no" || !strings.Contains(f.Tail, "subs") {
		t.Fatalf("failure = %v, %v", err, res.Failure)
	}
	if res.Gates[0].Passed || !strings.HasSuffix(res.Gates[0].Tests, "; own tests pass") || res.Judged.tests["test"] != res.Gates[0].Tests {
		t.Errorf("record = %+v, judged %+v", res.Gates[0], res.Judged)
	}
}
