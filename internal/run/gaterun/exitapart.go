package gaterun

import (
	"context"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// ExitCodesApart runs gs — the task's gates whose runner gives no report,
// judged by exit code (make test, a script) — once more, on the task's
// tree with paths (what the tests' base form puts back, BaseForm) as the
// base has them, in a clean checkout. A gate that passed on the task's
// tree and fails there passed only with the task's own version of its
// tests, their data or its configuration, and fails the task.
func (tr TestRuns) ExitCodesApart(ctx context.Context, gs []gates.Gate, paths []string) error {
	if len(gs) == 0 || len(paths) == 0 {
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
	tr.Gates.Out.Println("      judge: %s with the base's tests (%s left as the base has them)", strings.Join(gateNames(gs), ", "), strings.Join(paths, ", "))
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
		return &outcome.Failure{
			What: fmt.Sprintf("gate %s fails with the tests as the base has them (%s left as the base has them): it exited %d, and passes only with the task's version of them",
				res.Name, strings.Join(paths, ", "), res.ExitCode),
			Tail: res.Tail,
			Hint: "what the tests asserted at the base, with the base's data and configuration, must still hold; declare in the plan the files the task changes on purpose (Files:, Changes tests:)",
		}
	}
	return nil
}

func gateNames(gs []gates.Gate) []string {
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.Name
	}
	return out
}
