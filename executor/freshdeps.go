package executor

import (
	"context"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/planparse"
)

// The judge's clean checkouts link the work tree's ignored dependency
// environments (node_modules/, a virtual environment) as they were before
// the agent ran. A task that changes a dependency manifest needs them
// installed from its manifest instead: linked, they are what the agent's
// own install left, which git does not see and planx does not check then
// (deps.go). So such a task's checkouts get no link to them, and the
// worktree_setup: command of .planx.yaml (npm ci, uv sync) installs them
// afresh in each checkout; without one the task fails, saying how to
// configure it.

// depEnvs are the dependency environments among the ignored entries the
// judge's checkouts would link: node_modules/ and virtual environments.
func depEnvs(root string, ignored []string) []string {
	var out []string
	for _, e := range ignored {
		dir := strings.TrimSuffix(e, "/")
		if dir == e {
			continue // a file
		}
		switch path.Base(dir) {
		case "node_modules", ".venv", "venv":
			out = append(out, e)
			continue
		}
		if _, err := os.Stat(relJoin(root, dir+"/pyvenv.cfg")); err == nil {
			out = append(out, e)
		}
	}
	return out
}

// freshDeps returns the dependency environments the task's checkouts must
// install afresh rather than link (none when it changed no manifest), and
// a failure when there are some and no worktree_setup to install them.
func (tu *turn) freshDeps() ([]string, error) {
	r := tu.r
	if !changesDeps(tu.lt.Files) {
		return nil, nil
	}
	envs := depEnvs(r.repo.Root, tu.ignoredBefore())
	if len(envs) == 0 || r.cfg.WorktreeSetup != "" {
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
	links := append(slices.DeleteFunc(minus(tu.ignoredBefore(), fresh), cacheEntry), extra...)
	wt, err := r.checkout(ctx, t, sha, label, links)
	if err != nil || len(fresh) == 0 {
		return wt, err
	}
	if err := tu.setupIn(ctx, wt.dir, label); err != nil {
		wt.release(ctx)
		return nil, err
	}
	return wt, nil
}

// setupIn runs worktree_setup in the checkout dir, like a gate: the
// gates' environment, the step timeout (else a gate's default).
func (tu *turn) setupIn(ctx context.Context, dir, label string) error {
	r, t := tu.r, tu.t
	r.out.Println("      worktree_setup in the %s checkout: %s", label, r.cfg.WorktreeSetup)
	g := gates.Gate{Name: "worktree_setup", Command: r.cfg.WorktreeSetup, Timeout: r.o.StepTimeout}
	res, err := r.gateRun().Exec(ctx, gaterun.Spec{Task: t, ID: planparse.TaskID(string(t.ID) + "-" + label), Dir: dir,
		Gates: []gates.Gate{g}, Live: true, Track: true,
		Begin: func(gates.Gate) { r.out.Phase("worktree_setup in the " + label + " checkout") }})
	if err != nil {
		return err
	}
	if !res[0].Passed {
		return &outcome.Failure{What: fmt.Sprintf("worktree_setup (%s) failed in the %s checkout (exit %d)", r.cfg.WorktreeSetup, label, res[0].ExitCode),
			Tail: res[0].Tail}
	}
	return nil
}

// cacheEntry reports an ignored entry a tool rebuilds on its own and
// trusts without looking at the sources: bytecode (an "unchecked-hash"
// .pyc is loaded whatever its .py says) and test runners' caches. The
// judge's checkouts never link one; the gates make their own.
func cacheEntry(e string) bool {
	switch path.Base(strings.TrimSuffix(e, "/")) {
	case "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis":
		return true
	}
	switch path.Ext(strings.TrimSuffix(e, "/")) {
	case ".pyc", ".pyo":
		return true
	}
	return false
}

// ignoredBefore are the ignored entries of the work tree before the agent
// ran (those the run started with when the turn did not see it start).
func (tu *turn) ignoredBefore() []string {
	if tu.watch != nil {
		return tu.watch.Ignored
	}
	return tu.r.ignored
}
