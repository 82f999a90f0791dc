package taskgate

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/run/gaterun"
	"github.com/planx-dev/planx/planparse"
)

// A shell or manual task whose gate fails leaves a person asking whose
// failure it is: a plan's first task often meets a base that was already
// broken (a vet error in a test file). Without a baseline (--baseline),
// planx gives the fact that answers it, on the failure only: the failed
// gate runs once more on the commit the task started from, in a clean
// checkout, and the failure says whether it passed or failed there. Only
// the fact: a gate that checks the task's own output fails there too, and
// that says nothing against the task. An agent task's gates are judged
// against the base already (testjudge.go); acceptance commands are the
// task's own definition of done, not run on the base.

// onBaseToo returns err, the gate failure of task tk of the run k keeps
// the gates of, saying whether the failed gate fails on the task's base
// too; err unchanged when it cannot tell, and in a wave's slot or a run
// with a baseline, which ran the gates on the base already.
func onBaseToo(ctx context.Context, k *Keeper, tk Task, sel []gates.Gate, err error) error {
	if k.BaselineOn || k.slot {
		return err
	}
	var fail *outcome.Failure
	if !errors.As(err, &fail) || tk.Kind == planparse.KindAgent || tk.Base == "" || ctx.Err() != nil {
		return err
	}
	g, ok := failedGate(tk.Log, sel)
	if !ok || !slices.ContainsFunc(k.Gates, func(c gates.Gate) bool { return c.Name == g.Name }) {
		return err
	}
	wt, cerr := k.checkoutBase(ctx, tk.T, tk.Base, tk.Ignored)
	if cerr != nil {
		return err
	}
	defer wt.Release(ctx)
	t := &planparse.Task{ID: tk.T.ID + "-base", Title: tk.T.Title}
	// Exec, not Run: no line of its own beside the task's gates, only
	// the fact, under the failure (not in its one line, which the log,
	// the stop and Planx-Finished quote).
	results, rerr := k.GateRun().Exec(ctx, gaterun.Spec{Task: t, Dir: wt.dir, Gates: []gates.Gate{g}, Track: true})
	if rerr != nil || ctx.Err() != nil || len(results) != 1 {
		return err
	}
	at := fmt.Sprintf("on the commit %s started from (%s), gate %s", tk.T.ID, tk.Base.Short(), g.Name)
	if r := results[0]; r.Passed {
		fail.See = append(fail.See, at+" passed")
	} else {
		p := r.OutputPath
		if rel, err := filepath.Rel(k.Repo.Root, p); err == nil {
			p = rel
		}
		fail.See = append(fail.See, fmt.Sprintf("%s failed too (exit %d): %s", at, r.ExitCode, p))
	}
	return err
}

// failedGate is the gate of sel whose result in lt failed last.
func failedGate(lt *execlog.Task, sel []gates.Gate) (gates.Gate, bool) {
	for i := len(lt.Gates) - 1; i >= 0; i-- {
		if r := lt.Gates[i]; !r.Passed {
			for _, g := range sel {
				if g.Name == r.Name {
					return g, true
				}
			}
			return gates.Gate{}, false
		}
	}
	return gates.Gate{}, false
}
