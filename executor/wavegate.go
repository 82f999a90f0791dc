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
	"github.com/planx-dev/planx/ledger"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/record"
	wavepkg "github.com/planx-dev/planx/wave"
)

// A wave's integration gate: the gates run once on the combined tree of
// the tasks integrated, bisecting for the task that breaks it, and their
// results sealed into the wave's last commit.

// gate runs the integration gate on the wave's combined tree (wave.Gate),
// the run's gates selected for the wave, and returns how many commits of
// the chain to keep, marking the task that breaks the gates failed, and
// the gates' passing results on the last commit kept (nil when none ran).
func (wv *wave) gate(ctx context.Context, chain []staged) (int, []execlog.Gate, error) {
	r := wv.r
	sel := gates.Select(r.Gates, nil, wv.last)
	if len(chain) == 0 || len(sel) == 0 {
		return len(chain), nil, nil
	}
	g := wavepkg.Gate{Repo: r.repo, Pool: r.pool, Ref: record.WaveRef(r.st.RunID), Number: wv.number, Warn: r.out.Warn}
	for _, s := range chain {
		g.IDs, g.Commits = append(g.IDs, s.it.t.ID), append(g.Commits, s.commit)
	}
	passed := map[int][]execlog.Gate{} // the commits the gates passed on
	g.Check = func(ctx context.Context, dir string, i int) (*outcome.Failure, error) {
		name := fmt.Sprintf("wave%d-%s", wv.number, chain[i].it.t.ID)
		gt := &planparse.Task{ID: planparse.TaskID(name)}
		defer r.fault.Soon("during-wave-gate", 100*time.Millisecond)()
		out, err := r.keeper().GateRun().Run(ctx, gaterun.Spec{Task: gt, Dir: dir, Gates: sel})
		if err != nil {
			return nil, err
		}
		var f *outcome.Failure
		if !errors.As(out.Failure, &f) {
			r.keeper().Book().RecordWaveGates(ctx, gt, chain[i].commit, out.Gates)
			passed[i] = out.Gates
		}
		return f, nil
	}
	keep, fail, err := g.Run(ctx)
	if err != nil || fail == nil {
		return keep, passed[keep-1], err
	}
	chain[keep].it.fail = fail
	// The base passed or chain[keep-1], the last commit kept, did.
	return keep, passed[keep-1], nil
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
