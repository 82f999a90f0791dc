package gitops

import (
	"context"
	"errors"
	"strings"
)

// RunHook runs the user's hook name with args in this work tree, from the
// hooks path in force (pinned at run start: PinConfig), as git commit would
// run it: `git hook run --ignore-missing`, so a hook that is not installed
// is no error. It is for commits git commit does not make (a parallel
// wave's, made with commit-tree). A hook that fails is a *HookError with
// what it printed.
func (cm Commits) RunHook(ctx context.Context, name string, args ...string) error {
	r := cm.r
	if err := checkArg("hook", name); err != nil {
		return err
	}
	g := r.runner
	g.env = hookEnv()
	g.hooks = true
	// run, not write: a hook is run once, whatever it prints about locks.
	out, err := g.run(ctx, nil, false, append([]string{"hook", "run", "--ignore-missing", name, "--"}, args...)...)
	if err == nil {
		return nil
	}
	var ge *GitError
	if !errors.As(err, &ge) || ge.ExitCode < 0 || ctx.Err() != nil {
		return err
	}
	return &HookError{Hook: name, Output: strings.TrimSpace(ge.Stderr + "\n" + strings.TrimSpace(string(out))), err: ge}
}
