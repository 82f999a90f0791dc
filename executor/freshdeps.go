package executor

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/verify"
)

// The judge's clean checkouts link the work tree's ignored dependency
// environments (node_modules/, a virtual environment) as they were before
// the agent ran. A task that changes a dependency manifest needs them
// installed from its manifest instead: linked, they are what the agent's
// own install left, which git does not see and planx does not check then
// (verify.Runners). So such a task's checkouts get no link to them, and the
// worktree_setup: command of .planx.yaml (npm ci, uv sync) installs them
// afresh in each checkout; without one the task fails, saying how to
// configure it.

// freshDeps returns the dependency environments the task's checkouts must
// install afresh rather than link (none when it changed no manifest), and
// a failure when there are some and no worktree_setup to install them.
func (tu *turn) freshDeps() ([]string, error) {
	r := tu.r
	if !verify.ChangesDeps(tu.lt.Files) {
		return nil, nil
	}
	envs := gaterun.DepEnvs(r.repo.Root, tu.ignoredBefore())
	if len(envs) == 0 || r.Config.WorktreeSetup != "" {
		return envs, nil
	}
	return nil, &outcome.Failure{
		What: fmt.Sprintf("the task changed a dependency manifest, and its gates would use %s as the task left them, which git does not see",
			strings.Join(envs, ", ")),
		Hint: "set worktree_setup: in .planx.yaml (e.g. `npm ci`, `uv sync`): planx runs it in the gates' clean checkout of a task that changes a dependency manifest, then `planx resume`",
	}
}

// checkout is a clean checkout of sha for the task's judge (label: base,
// judge, gates) with links to the ignored entries the work tree had before
// the agent ran, its dependency environments installed afresh by
// worktree_setup when the task changed a manifest. extra are more entries
// to link (submodules).
func (tu *turn) checkout(ctx context.Context, sha gitops.SHA, label string, extra ...string) (*slotUse, error) {
	r, t := tu.r, tu.t
	fresh, err := tu.freshDeps()
	if err != nil {
		return nil, err
	}
	links := append(slices.DeleteFunc(minus(tu.ignoredBefore(), fresh), gaterun.CacheEntry), extra...)
	wt, err := r.checkout(ctx, t, sha, label, links)
	if err != nil || len(fresh) == 0 {
		return wt, err
	}
	if err := r.gateRun().Setup(ctx, t, wt.dir, label, r.Config.WorktreeSetup, r.o.StepTimeout); err != nil {
		wt.release(ctx)
		return nil, err
	}
	return wt, nil
}

// ignoredBefore are the ignored entries of the work tree before the agent
// ran (those the run started with when the turn did not see it start).
func (tu *turn) ignoredBefore() []string {
	if tu.Watch != nil {
		return tu.Watch.Ignored
	}
	return tu.r.ignored
}

// minus returns the entries of a not in b (both sorted or not).
func minus(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}
