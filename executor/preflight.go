package executor

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/record"
	"github.com/planx-dev/planx/verify"
)

// preflight checks the repository can take a run and returns its HEAD.
func (r *runner) preflight(ctx context.Context) (gitops.Head, error) {
	var checks []execlog.Check
	if op := r.repo.InProgress(); op != "" {
		return gitops.Head{}, fmt.Errorf("%w: a %s is in progress; finish it or abort it (git %s --continue / --abort) before running a plan",
			gitops.ErrRepoState, op, op)
	}
	checks = append(checks, execlog.Check{Name: "no merge, rebase, cherry-pick or bisect in progress", OK: true})
	head, err := r.repo.HeadNow()
	if err != nil {
		return head, err
	}
	if head.Detached && !r.o.AllowDetached {
		return head, fmt.Errorf("%w: HEAD is detached; check out a branch (git switch -c NAME) or pass --allow-detached", gitops.ErrRepoState)
	}
	checks = append(checks, execlog.Check{Name: "HEAD on a branch", OK: true, Detail: cmp.Or(head.Branch, "detached (--allow-detached)")})
	if err := r.repo.Config().CheckIdentity(ctx); err != nil {
		return head, err
	}
	checks = append(checks, execlog.Check{Name: "git identity (user.name, user.email)", OK: true})
	if err := r.repo.Config().CheckSigning(ctx); err != nil {
		return head, err
	}
	work := "uncommitted work, if any, goes into the rollback commit (git show --stat on it lists it)"
	// One status of the tree answers the secret scan, --require-clean,
	// which ignored files exist and what the rollback commit must stage.
	sv, err := r.early.take(ctx, r.repo)
	if err != nil {
		return head, err
	}
	r.survey = &sv
	if r.o.RequireClean {
		if len(sv.Changes) > 0 {
			return head, fmt.Errorf("%w: the work tree has %d uncommitted change(s) (%s); commit or stash them, or drop --require-clean to have planx snapshot them in the rollback commit",
				gitops.ErrRepoState, len(sv.Changes), summarize(sv.Changes))
		}
		work = "clean (--require-clean)"
	} else {
		c, err := verify.CheckSecrets(r.repo.Root, r.o.AllowUntrackedSecrets, sv.Changes)
		if err != nil {
			return head, err
		}
		checks = append(checks, c)
	}
	checks = append(checks,
		execlog.Check{Name: "work tree", OK: true, Detail: work},
		execlog.Check{Name: "plan validates", OK: true, Detail: fmt.Sprintf("%s, %d task(s), format %s", r.planRel, len(r.Plan.Tasks), r.Plan.Format)},
		execlog.Check{Name: "gates", OK: true, Detail: gatesDetail(r.Gates)},
		execlog.Check{Name: "processes left behind by a task", OK: true, Detail: r.reaper.Note},
	)
	r.preChecks = checks
	return head, nil
}

func baseRef(runID string) string { return record.RunRef(runID, "base") }

func summarize(cs []gitops.Change) string {
	var names []string
	for i, c := range cs {
		if i == 3 {
			names = append(names, fmt.Sprintf("and %d more", len(cs)-3))
			break
		}
		names = append(names, c.Path)
	}
	return strings.Join(names, ", ")
}

// noGates is the warning of a run without gates: nothing but the steps'
// own exit codes decides that a task is done.
const noGates = "no gates: each task is committed on its steps' (or agent's) exit code alone, and nothing checks the result; declare a gate in .planx.yaml or the plan's front matter (gates: [{name: test, command: go test ./...}]) or with --gate test='go test ./...'"

func gatesDetail(gs []gates.Gate) string {
	if len(gs) == 0 {
		return "warning: " + noGates
	}
	return gateNames(gs) + " (pinned for the whole run)"
}

func gateNames(gs []gates.Gate) string {
	if len(gs) == 0 {
		return "none configured"
	}
	var names []string
	for _, g := range gs {
		names = append(names, g.Name)
	}
	return strings.Join(names, ", ")
}

// staleAsk is ask for a question asked before the rollback commit: while
// the person answers, the tree can change, so the preflight's survey is
// dropped and the rollback stages and snapshots as if it had none.
func (r *runner) staleAsk() func(string) bool {
	ask := r.o.ask()
	if ask == nil {
		return nil
	}
	return func(q string) bool {
		r.survey = nil
		return ask(q)
	}
}
