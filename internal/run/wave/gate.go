package wave

import (
	"context"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/planparse"
)

// Gate is a wave's integration gate: the gates run once on the combined
// tree of the tasks integrated (the chain's tip), in a slot the wave's
// tasks are done with, bisecting over the chain for the task that breaks
// them. What the gates are, and recording what they passed on, is the
// caller's (the check given to Run).
type Gate struct {
	Repo    *gitops.Repo
	Pool    *Pool
	Ref     string // names the chain's tip while the gates run, so that its commits stay reachable
	Number  int    // the wave's number in the run, for the messages
	IDs     []planparse.TaskID
	Commits []gitops.SHA // the chain: the task commits staged in plan order, IDs[i]'s at i
	Desk    hall.Desk    // says that the gates failed on the tip, before the bisection
	// Next is how many slots the run's next wave takes at once (0: none):
	// they are checked out at the tip while the gates run (Pool.Prepare).
	Next int
}

// CheckFunc runs the gates in dir, where commit i of the chain is checked
// out, and returns their failure (nil when they passed).
type CheckFunc func(ctx context.Context, dir string, i int) (*outcome.Failure, error)

// Run gates the chain's tip with check. When the gates fail it bisects for the first
// task whose addition breaks them (the wave's base is taken as passing:
// each task passed alone on it) and returns how many commits of the chain
// to keep, with the breaking task's failure; fail is nil when the tip passed.
func (g Gate) Run(ctx context.Context, check CheckFunc) (keep int, fail *outcome.Failure, err error) {
	if len(g.Commits) == 0 {
		return 0, nil, nil
	}
	hi := len(g.Commits) - 1
	dir, err := g.Pool.Take(ctx, g.Commits[hi])
	if err != nil {
		return 0, nil, err
	}
	defer g.Pool.Put(dir)
	wait := g.Pool.Prepare(ctx, g.Commits[hi], g.Next)
	defer wait()
	wt, err := gitops.Open(ctx, dir)
	if err != nil {
		return 0, nil, err
	}
	if err := g.Repo.Refs().Update(ctx, g.Ref, g.Commits[hi], "", "planx: stage a wave"); err != nil {
		return 0, nil, err
	}
	defer func() { _ = g.Repo.Refs().Delete(context.WithoutCancel(ctx), g.Ref) }()
	// Take left the slot clean at the chain's tip, where the gates run
	// first: only the bisection's commits need a checkout.
	fresh := g.Commits[hi]
	at := func(i int) (*outcome.Failure, error) {
		if g.Commits[i] != fresh {
			if err := wt.CheckoutClean(ctx, g.Commits[i]); err != nil {
				return nil, err
			}
		}
		fresh = ""
		return check(ctx, wt.Root, i)
	}
	if fail, err = at(hi); err != nil || fail == nil {
		return len(g.Commits), nil, err
	}
	g.Desk.Say(g.IDs[hi], fmt.Sprintf("integration gate failed on wave %d's combined tree (%s); bisecting", g.Number, fail.What))
	if hi, fail, err = Bisect(hi, fail, at); err != nil {
		return 0, nil, err
	}
	before := make([]string, hi)
	for i, id := range g.IDs[:hi] {
		before[i] = string(id)
	}
	with := "on the wave's base"
	if len(before) > 0 {
		with = "after " + strings.Join(before, ", ")
	}
	fail.What = fmt.Sprintf("integration gate: %s once %s is added %s (it passed its gates alone; %s breaks the combined tree)",
		fail.What, g.IDs[hi], with, g.IDs[hi])
	return hi, fail, nil
}
