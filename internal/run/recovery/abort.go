package recovery

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/run/attempt"
	"github.com/planx-dev/planx/internal/run/handconfig"
	"github.com/planx-dev/planx/internal/run/land"
	"github.com/planx-dev/planx/internal/run/rewind"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/run/verify"
)

// AbortOptions configure `planx abort`: the repository's directory ("":
// the current one) and where it reports.
type AbortOptions struct {
	Dir string
	progress.Output
}

// Abort returns the repository to exactly the state before the run
// (rewind.Run), under the run's lock, after it has cleaned the run's
// orphaned processes and its saved watch and kept what was staged apart
// from the work tree since the stop. A person's edit of .planx.yaml made
// after the stop is put back in the rewound work tree, for the next run.
func Abort(ctx context.Context, ao AbortOptions) (*rewind.Result, error) {
	repo, err := gitops.Open(ctx, cmp.Or(ao.Dir, "."))
	if err != nil {
		return nil, err
	}
	// Nothing to abort: say so before the lock, whose file would create
	// .git/planx/ in a repository that never ran planx.
	if _, err := os.Stat(runstate.Path(repo)); errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoRun
	}
	lk, err := runstate.Acquire(repo, "abort")
	if err != nil {
		return nil, err
	}
	defer lk.Release()
	st, err := runstate.Load(repo)
	if err != nil {
		return nil, err
	}
	if st == nil {
		return nil, ErrNoRun
	}
	out := progress.New(ao.Output)
	if err := CleanRun(ctx, repo, st, out); err != nil {
		return nil, err
	}
	WarnHeldPlan(repo, st, out)
	if err := land.Unland(ctx, repo, out); err != nil {
		return nil, err
	}
	watch := verify.WatchFileOf(repo, st.RunID)
	if what := watch.CheckInterrupted(st.Current); what != "" {
		out.Warn(st.Current, what)
	}
	watch.Drop()
	head, err := repo.Head(ctx)
	if err != nil {
		return nil, err
	}
	if head.Branch != st.Branch {
		return nil, fmt.Errorf("%w: the run was on branch %q but HEAD is on %q; %s",
			gitops.ErrRepoState, st.Branch, verify.HeadName(head), verify.SwitchBack(st.Branch, "`planx abort`"))
	}
	// Content staged apart from the work tree since the stop lives only in
	// the index, which the abort replaces.
	if err := (attempt.Records{Repo: repo, State: st, Out: out}).KeepStagedApart(ctx, st.OrigIndex); err != nil {
		return nil, err
	}
	conf, err := configToKeep(ctx, repo, st, head.SHA)
	if err != nil {
		return nil, err
	}
	res, err := rewind.Run(ctx, rewind.Options{Repo: repo, State: st, Log: st.Log, Head: head,
		StopTree: handconfig.StopTree(st, head.SHA), KeepConfig: conf != nil})
	if err != nil {
		return nil, err
	}
	if conf != nil {
		if err := conf.putBack(repo.Root); err != nil {
			return nil, fmt.Errorf("%w (it is kept at %s)", err, res.WorkRef)
		}
	}
	if err := EndRun(repo, st, out); err != nil {
		return nil, err
	}
	if dirty, err := repo.Dirty(ctx); err == nil {
		res.Uncommitted = dirty
	}
	return res, nil
}
