package executor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/ledger"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/record"
	wavepkg "github.com/planx-dev/planx/wave"
)

// A wave's integration gate: the gates run once on the combined tree of
// the tasks integrated, bisecting for the task that breaks it, and their
// results sealed into the wave's last commit.

// gate runs the gates once on the wave's combined tree. When they fail
// it bisects over the chain for the first task whose addition breaks them
// (the wave's base is taken as passing: each task passed alone on it), and
// returns how many commits of the chain to keep, marking the breaking
// task failed, and the gates' passing results on the last commit kept (nil
// when none ran).
func (wv *wave) gate(ctx context.Context, chain []staged) (int, []execlog.Gate, error) {
	r := wv.r
	sel := gates.Select(r.Gates, nil, wv.last)
	if len(chain) == 0 || len(sel) == 0 {
		return len(chain), nil, nil
	}
	// A slot the wave's tasks are done with, checked out at each commit to gate.
	dir, err := r.pool.Take(ctx, chain[len(chain)-1].commit)
	if err != nil {
		return 0, nil, err
	}
	defer r.pool.Put(dir)
	wt, err := gitops.Open(ctx, dir)
	if err != nil {
		return 0, nil, err
	}
	ref := record.WaveRef(r.st.RunID)
	if err := r.repo.Refs().Update(ctx, ref, chain[len(chain)-1].commit, "", "planx: stage a wave"); err != nil {
		return 0, nil, err
	}
	passed := map[int][]execlog.Gate{} // the commits the gates passed on
	defer func() { _ = r.repo.Refs().Delete(context.WithoutCancel(ctx), ref) }()
	// take left the slot clean at the chain's tip, where the gates run
	// first: only the bisection's commits need a checkout.
	fresh := chain[len(chain)-1].commit
	check := func(i int) (*outcome.Failure, error) {
		name := fmt.Sprintf("wave%d-%s", wv.number, chain[i].it.t.ID)
		out, err := r.gateAt(ctx, wt, chain[i].commit, fresh, name, sel)
		fresh = ""
		if err != nil {
			return nil, err
		}
		var f *outcome.Failure
		if !errors.As(out.Failure, &f) {
			r.book().RecordWaveGates(ctx, &planparse.Task{ID: planparse.TaskID(name)}, chain[i].commit, out.Gates)
			passed[i] = out.Gates
		}
		return f, nil
	}
	hi := len(chain) - 1
	fail, err := check(hi)
	if err != nil || fail == nil {
		return len(chain), passed[hi], err
	}
	r.out.Warn(chain[hi].it.t.ID, fmt.Sprintf("integration gate failed on wave %d's combined tree (%s); bisecting", wv.number, fail.What))
	hi, fail, err = wavepkg.Bisect(hi, fail, check)
	if err != nil {
		return 0, nil, err
	}
	before := chainIDs(chain[:hi])
	with := "on the wave's base"
	if len(before) > 0 {
		with = "after " + strings.Join(before, ", ")
	}
	fail.What = fmt.Sprintf("integration gate: %s once %s is added %s (it passed its gates alone; %s breaks the combined tree)",
		fail.What, chain[hi].it.t.ID, with, chain[hi].it.t.ID)
	chain[hi].it.fail = fail
	// The base passed or chain[hi-1], the last commit kept, did.
	return hi, passed[hi-1], nil
}

// seal writes the integration gate's results into the wave's last
// commit kept, whose tree is the one they ran on, as Planx-Wave-Gate
// trailers: the commit is made again (same tree, same parent) with them
// before any ref names it, so that verify reads from history what was
// gated on the combined tree.
func (wv *wave) seal(ctx context.Context, keep []staged, passed []execlog.Gate) error {
	r := wv.r
	if len(keep) == 0 || len(passed) == 0 {
		return nil
	}
	s := &keep[len(keep)-1]
	msg := strings.TrimRight(s.msg, "\n") + "\n"
	for _, g := range passed {
		msg += fmt.Sprintf("%s: %s\n", record.TrailerWaveGate, ledger.GateTrailer(g))
		if len(g.Known) > 0 {
			msg += fmt.Sprintf("%s: known-failures=%s:%s\n", record.TrailerWarning, g.Name, strings.Join(g.Known, ","))
		}
	}
	c, err := r.repo.Objects().CommitTree(ctx, s.tree, msg, s.parent, r.sign)
	if err != nil {
		return fmt.Errorf("commit task %s: %w", s.it.t.ID, err)
	}
	s.commit, s.msg = c, msg
	s.it.lt.Commit = string(c)
	return nil
}

// gateAt runs gates on commit c in the wave's gate work tree wt, checking c
// out there first unless wt is fresh: clean at c already.
func (r *runner) gateAt(ctx context.Context, wt *gitops.Repo, c, fresh gitops.SHA, name string, sel []gates.Gate) (gaterun.Outcome, error) {
	if c != fresh {
		if err := wt.CheckoutClean(ctx, c); err != nil {
			return gaterun.Outcome{}, err
		}
	}
	defer r.fault.Soon("during-wave-gate", 100*time.Millisecond)()
	return r.gateRun().Run(ctx, gaterun.Spec{Task: &planparse.Task{ID: planparse.TaskID(name)}, Dir: wt.Root, Gates: sel})
}

func chainIDs(chain []staged) []string {
	ids := make([]string, len(chain))
	for i, s := range chain {
		ids[i] = string(s.it.t.ID)
	}
	return ids
}
