package gaterun

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// ExitCodesApart runs gs — the task's gates whose runner gives no report,
// judged by exit code (make test, a script) — once more, on the task's
// tree with tests (the test files the tests' base form puts back,
// BaseForm) as the base has them, in a clean checkout; for a gate that
// runs make, with the files of undeclared (those the task changed that
// the plan does not declare) that make reads as the base has them too
// (makeWorld). A gate that passed on the task's tree and fails there
// passed only with the task's own version of its tests, their data, its
// configuration or its build, and fails the task.
func (tr TestRuns) ExitCodesApart(ctx context.Context, gs []gates.Gate, tests, undeclared []string) error {
	if len(gs) == 0 {
		return nil
	}
	mk, why, err := tr.makeWorld(ctx, gs, tests, undeclared)
	if err != nil {
		return err
	}
	paths := append(slices.Clone(tests), mk...)
	if len(paths) == 0 {
		return nil
	}
	c, err := tr.withBase(ctx, paths, "judge-exit", "planx: the task's tree with the base's tests")
	if err != nil {
		return err
	}
	dir, release, err := tr.Checkout(ctx, c, "judge-exit")
	if err != nil {
		return err
	}
	defer release()
	id := planparse.TaskID(string(tr.Task.ID) + "-judge-exit")
	said := fmt.Sprintf("%s left as the base has them", strings.Join(paths, ", "))
	if len(mk) > 0 {
		said = makeSaid(tests, mk, why)
	}
	tr.Gates.Out.Println("      judge: %s with the base's tests (%s)", strings.Join(gateNames(gs), ", "), said)
	results, err := tr.Gates.Exec(ctx, Spec{Task: tr.Task, ID: id, Dir: dir, Gates: gs, Track: true,
		Begin: func(g gates.Gate) {
			tr.Gates.Out.Phase(tr.Task.ID, "gate "+textsafe.Line(g.Name)+" with the base's tests")
		}})
	if err != nil {
		return err
	}
	for _, res := range results {
		if res.Passed {
			continue
		}
		if len(mk) > 0 {
			return &outcome.Failure{
				What: fmt.Sprintf("gate %s fails with make's files as the base has them (%s): it exited %d, and passes only with the task's undeclared change to what make reads",
					res.Name, said, res.ExitCode),
				Tail: res.Tail,
				Hint: "make decides what the gate runs from the makefiles it reads; a task that changes them on purpose declares them in the plan (Files:)",
			}
		}
		return &outcome.Failure{
			What: fmt.Sprintf("gate %s fails with the tests as the base has them (%s): it exited %d, and passes only with the task's version of them",
				res.Name, said, res.ExitCode),
			Tail: res.Tail,
			Hint: "what the tests asserted at the base, with the base's data and configuration, must still hold; declare in the plan the files the task changes on purpose (Files:, Changes tests:)",
		}
	}
	return nil
}

// makeSaid says which files a make gate's run apart puts back: the test
// files, and the makefiles make reads that the task changed undeclared
// (or, why being set, every file but code it changed undeclared).
func makeSaid(tests, mk []string, why string) string {
	var b strings.Builder
	if why != "" {
		fmt.Fprintf(&b, "%s, so every file but code the task changed without declaring it is: %s", why, strings.Join(mk, ", "))
	} else {
		fmt.Fprintf(&b, "make reads %s, which the task changed without declaring", strings.Join(mk, ", "))
	}
	b.WriteString(", left as the base has them")
	if len(tests) > 0 {
		fmt.Fprintf(&b, ", as are %s", strings.Join(tests, ", "))
	}
	return b.String()
}

func gateNames(gs []gates.Gate) []string {
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.Name
	}
	return out
}
