package review

import (
	"context"
	"fmt"

	"github.com/planx-dev/planx/gitops"
)

// Scope descriptions, as Report.Scope says which commits were checked.
const (
	scopeLatest = "most recent run"
)

// selectRuns finds the runs to check and, for a range, the commits in it
// (nil scope: every task commit of the runs). It fills rep.Tip and
// rep.Scope.
func selectRuns(ctx context.Context, repo *gitops.Repo, opts Options, rep *Report) ([]Run, map[gitops.SHA]bool, error) {
	switch {
	case opts.Range != "":
		from, to, err := parseRange(ctx, repo, opts.Range)
		if err != nil {
			return nil, nil, err
		}
		rep.Tip, rep.Scope = to, opts.Range
		commits, err := repo.History().Log(ctx, to, from, 0)
		if err != nil {
			return nil, nil, fmt.Errorf("read %s: %w", opts.Range, err)
		}
		return runsOf(ctx, repo, to, commits, opts.Plan)
	case opts.Unpushed || opts.Auto:
		tip, err := tipOf(ctx, repo, opts.Rev)
		if err != nil || tip == "" {
			return nil, nil, err
		}
		rep.Tip = tip
		commits, scope, err := pending(ctx, repo, tip, opts)
		if err != nil {
			return nil, nil, err
		}
		if scope != "" {
			runs, in, err := runsOf(ctx, repo, tip, commits, opts.Plan)
			if len(runs) > 0 || err != nil || opts.Unpushed {
				rep.Scope = scope
				return runs, in, err
			}
			rep.Scope = scopeLatest + " (no planx task commit in " + scope + ")"
		}
	}
	tip, err := tipOf(ctx, repo, opts.Rev)
	if err != nil {
		return nil, nil, err
	}
	if rep.Tip = tip; tip == "" {
		return nil, nil, nil
	}
	if rep.Scope == "" {
		rep.Scope = scopeLatest
	}
	run, err := Latest(ctx, repo, tip, opts.Plan)
	if run == nil && err == nil {
		noteShallow(ctx, repo, rep)
		return nil, nil, nil
	}
	if run == nil {
		return nil, nil, err
	}
	return []Run{*run}, nil, err
}

// pending returns the commits of tip not yet pushed, and says which range
// that is: with Auto, the current branch's commits not on its upstream,
// else (and with Unpushed) the commits no remote-tracking ref reaches. The
// scope is "" when there is no such range (no upstream and no remote).
func pending(ctx context.Context, repo *gitops.Repo, tip gitops.SHA, opts Options) ([]gitops.Commit, string, error) {
	if opts.Auto {
		name, up, err := repo.History().Upstream(ctx)
		if err != nil {
			return nil, "", err
		}
		if up != "" {
			cs, err := repo.History().Log(ctx, tip, up, 0)
			return cs, name + "..HEAD", err
		}
	}
	has, err := repo.History().HasRemoteRefs(ctx)
	if err != nil || (!has && !opts.Unpushed) {
		return nil, "", err
	}
	cs, err := repo.History().Unpushed(ctx, tip)
	return cs, "commits not on any remote", err
}

func tipOf(ctx context.Context, repo *gitops.Repo, rev string) (gitops.SHA, error) {
	if rev == "" {
		rev = "HEAD"
	}
	tip, err := repo.Refs().Resolve(ctx, rev)
	if err != nil {
		return "", err
	}
	if tip == "" && rev != "HEAD" {
		return "", fmt.Errorf("%w: %q is not a commit", ErrRange, rev)
	}
	return tip, nil
}

// runsOf returns the runs the commits touch, whole, and the commits as the
// scope to check.
func runsOf(ctx context.Context, repo *gitops.Repo, to gitops.SHA, commits []gitops.Commit, plan string) ([]Run, map[gitops.SHA]bool, error) {
	scope := map[gitops.SHA]bool{}
	need := map[string]bool{}
	for _, c := range commits {
		scope[c.SHA] = true
		if p := classify(c); p.kind != kindOther && (plan == "" || p.plan == plan) {
			need[p.run] = true
		}
	}
	if len(need) == 0 {
		return nil, scope, nil
	}
	// Read back to the rollback commit of the oldest run the commits touch,
	// so dependency order and missing tasks are judged over whole runs.
	runs, err := collect(ctx, repo, to, plan, func(r *Run) bool {
		delete(need, r.ID)
		return len(need) == 0
	}, nil)
	var keep []Run
	for _, r := range runs {
		if touches(r, scope) {
			keep = append(keep, r)
		}
	}
	return keep, scope, err
}

func touches(r Run, scope map[gitops.SHA]bool) bool {
	if scope[r.Rollback] {
		return true
	}
	for _, t := range r.Tasks {
		if scope[t.Commit] {
			return true
		}
	}
	return false
}
