package wave

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/internal/ledger"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/planparse"
)

// gate runs the integration gate on the wave's combined tree (Gate) and
// returns how many commits of the chain to keep, marking the task that
// breaks the gates failed, and the gates' passing results on the last
// commit kept (nil when none ran).
func (l *Landing) gate(ctx context.Context, chain []staged) (int, []execlog.Gate, error) {
	if len(chain) == 0 || !l.Gated {
		return len(chain), nil, nil
	}
	g := Gate{Repo: l.Repo, Pool: l.Pool, Ref: record.WaveRef(l.State.RunID), Number: l.Number, Desk: l.Desk, Next: l.Next}
	for _, s := range chain {
		g.IDs, g.Commits = append(g.IDs, s.t.T.ID), append(g.Commits, s.commit)
	}
	passed := map[int][]execlog.Gate{} // the commits the gates passed on
	check := func(ctx context.Context, dir string, i int) (*outcome.Failure, error) {
		name := fmt.Sprintf("wave%d-%s", l.Number, chain[i].t.T.ID)
		gt := &planparse.Task{ID: planparse.TaskID(name)}
		defer l.Fault.Soon("during-wave-gate", 100*time.Millisecond)()
		var tasks []*planparse.Task
		for _, s := range chain[:i+1] {
			tasks = append(tasks, s.t.T)
		}
		gs, f, err := l.Runner.Gate(ctx, gt, dir, tasks)
		if err != nil {
			return nil, err
		}
		if f == nil && len(gs) > 0 {
			l.Book.RecordWaveGates(ctx, gt, chain[i].commit, gs)
			passed[i] = gs
		}
		return f, nil
	}
	keep, fail, err := g.Run(ctx, check)
	if err != nil || fail == nil {
		return keep, passed[keep-1], err
	}
	chain[keep].t.Fail = fail
	// The base passed or chain[keep-1], the last commit kept, did.
	return keep, passed[keep-1], nil
}

// seal writes the integration gate's results into the wave's last
// commit kept, whose tree is the one they ran on, as Planx-Wave-Gate
// trailers: the commit is made again (same tree, same parent) with them
// before any ref names it, so that verify reads from history what was
// gated on the combined tree.
func (l *Landing) seal(ctx context.Context, keep []staged, passed []execlog.Gate) error {
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
	c, err := l.Repo.Objects().CommitTree(ctx, s.tree, msg, s.parent, l.Sign)
	if err != nil {
		return fmt.Errorf("commit task %s: %w", s.t.T.ID, err)
	}
	if l.Pool != nil {
		l.Pool.Moved(s.commit, c)
	}
	s.commit, s.msg = c, msg
	s.t.Log.Commit = string(c)
	return nil
}
