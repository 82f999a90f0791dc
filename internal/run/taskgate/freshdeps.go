package taskgate

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/run/gaterun"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/planparse"
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
func (k *Keeper) freshDeps(tk Task) ([]string, error) {
	if !tk.ChangesDeps {
		return nil, nil
	}
	// The environments the work tree had, and those the agent's own
	// install made (no link to those either: the judge installs afresh).
	entries := slices.Clone(tk.Ignored)
	for _, e := range envEntries(tk.Outputs) {
		if !slices.Contains(entries, e) {
			entries = append(entries, e)
		}
	}
	envs := gaterun.DepEnvs(k.userRoot(), entries)
	if len(envs) == 0 || k.WorktreeSetup != "" {
		return envs, nil
	}
	return nil, &outcome.Failure{
		What: fmt.Sprintf("the task changed a dependency manifest, and its gates would use %s as the task left them, which git does not see",
			strings.Join(envs, ", ")),
		Hint: "set worktree_setup: in .planx.yaml (e.g. `npm ci`, `uv sync`): planx runs it in the gates' clean checkout of a task that changes a dependency manifest, then `planx resume`",
	}
}

// checkoutFor is a clean checkout of sha for the task's judge (label:
// base, judge, gates) with links to the ignored entries the work tree had
// before the agent ran, its dependency environments installed afresh by
// worktree_setup when the task changed a manifest. extra are more entries
// to link (submodules).
func (k *Keeper) checkoutFor(ctx context.Context, tk Task, sha gitops.SHA, label string, extra ...string) (*Slot, error) {
	fresh, err := k.freshDeps(tk)
	if err != nil {
		return nil, err
	}
	wt, err := k.Checkout(ctx, tk.T, sha, label, append(gaterun.Linkable(tk.Ignored, fresh...), extra...))
	if err != nil || len(fresh) == 0 {
		return wt, err
	}
	if err := k.setup(ctx, tk.T, wt.dir, label, fresh); err != nil {
		wt.Release(ctx)
		return nil, err
	}
	return wt, nil
}

// setup runs worktree_setup in the checkout dir, a slot of the run's
// pool, to install the environments fresh, once per slot for the same
// command and manifests: a slot that ran it on the same manifests before
// gets back what it installed (wave.Pool.Setup).
func (k *Keeper) setup(ctx context.Context, t *planparse.Task, dir, label string, fresh []string) error {
	key := wavepkg.SetupKey(dir, k.WorktreeSetup, k.Manifests)
	ran, err := k.Pool.Setup(dir, key, fresh, func() error {
		return k.GateRun().Setup(ctx, t, dir, label, k.WorktreeSetup, k.StepTimeout)
	})
	if !ran {
		k.Out.Println("      worktree_setup in the %s checkout: already ran in this slot for these manifests (%s)", label, strings.Join(fresh, ", "))
	}
	return err
}

// envEntries are the entries of the dependency environments (node_modules/,
// .venv/, venv/) that hold the ignored paths outputs, and the directories
// among outputs (a virtual environment of another name: DepEnvs reads
// its pyvenv.cfg).
func envEntries(outputs []string) []string {
	var out []string
	for _, o := range outputs {
		if strings.HasSuffix(o, "/") {
			out = append(out, o)
		}
		parts := strings.Split(strings.TrimSuffix(o, "/"), "/")
		for i, p := range parts {
			if p == "node_modules" || p == ".venv" || p == "venv" {
				out = append(out, path.Join(parts[:i+1]...)+"/")
				break
			}
		}
	}
	return out
}
