package runstart

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
)

// Checks are what the preflight checks beyond the repository's state:
// the flags that relax or tighten it, and what the execution log lists of
// the run (its plan, gates and the note on detached processes).
type Checks struct {
	AllowDetached         bool // --allow-detached
	RequireClean          bool // --require-clean
	AllowUntrackedSecrets bool // --allow-untracked-secrets
	Plan                  *planparse.Plan
	PlanRel               string // the plan's path, repo-relative
	Gates                 []gates.Gate
	ReaperNote            string // whether processes a task detaches are reaped
}

// Preflight checks repo can take a run, as c says, and returns its HEAD,
// the one status of its work tree that the run goes on from (early's, when
// one was started) and the checks the execution log lists.
func Preflight(ctx context.Context, repo *gitops.Repo, early *Early, c Checks) (gitops.Head, *gitops.Survey, []execlog.Check, error) {
	var checks []execlog.Check
	if op := repo.InProgress(); op != "" {
		return gitops.Head{}, nil, nil, fmt.Errorf("%w: a %s is in progress; finish it or abort it (git %s --continue / --abort) before running a plan",
			gitops.ErrRepoState, op, op)
	}
	checks = append(checks, execlog.Check{Name: "no merge, rebase, cherry-pick or bisect in progress", OK: true})
	head, err := repo.HeadNow()
	if err != nil {
		return head, nil, nil, err
	}
	if head.Detached && !c.AllowDetached {
		return head, nil, nil, fmt.Errorf("%w: HEAD is detached; check out a branch (git switch -c NAME) or pass --allow-detached", gitops.ErrRepoState)
	}
	checks = append(checks, execlog.Check{Name: "HEAD on a branch", OK: true, Detail: cmp.Or(head.Branch, "detached (--allow-detached)")})
	if err := checkIdentity(ctx, repo); err != nil {
		return head, nil, nil, err
	}
	checks = append(checks, execlog.Check{Name: "git identity (user.name, user.email)", OK: true})
	if err := checkSigning(ctx, repo); err != nil {
		return head, nil, nil, err
	}
	// A sparse checkout holds part of the tree: a task writing outside its
	// cone leaves git's staging, planx's checks and a recovery nothing
	// sound to stand on. Refused before anything changes.
	if s, err := repo.Config().Settings(ctx); err == nil && s.Sparse {
		return head, nil, nil, fmt.Errorf("%w: the work tree is a sparse checkout (core.sparseCheckout): planx verifies, gates and commits whole trees; run `git sparse-checkout disable`, then the plan", gitops.ErrRepoState)
	}
	work := "uncommitted work, if any, goes into the rollback commit (git show --stat on it lists it)"
	// One status of the tree answers the secret scan, --require-clean,
	// which ignored files exist and what the rollback commit must stage.
	sv, err := early.take(ctx, repo)
	if err != nil {
		return head, nil, nil, err
	}
	if c.RequireClean {
		if len(sv.Changes) > 0 {
			return head, nil, nil, fmt.Errorf("%w: the work tree has %d uncommitted change(s) (%s); commit or stash them, or drop --require-clean to have planx snapshot them in the rollback commit",
				gitops.ErrRepoState, len(sv.Changes), summarize(sv.Changes))
		}
		work = "clean (--require-clean)"
	} else {
		secrets, err := CheckSecrets(repo.Root, c.AllowUntrackedSecrets, sv.Changes)
		if err != nil {
			return head, nil, nil, err
		}
		checks = append(checks, secrets)
	}
	checks = append(checks,
		execlog.Check{Name: "work tree", OK: true, Detail: work},
		execlog.Check{Name: "plan validates", OK: true, Detail: fmt.Sprintf("%s, %d task(s), format %s", c.PlanRel, len(c.Plan.Tasks), c.Plan.Format)},
		execlog.Check{Name: "gates", OK: true, Detail: gatesDetail(c.Gates)},
		execlog.Check{Name: "processes left behind by a task", OK: true, Detail: c.ReaperNote},
	)
	return head, &sv, checks, nil
}

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

// NoGates is the warning of a run without gates: nothing but the steps'
// own exit codes decides that a task is done.
const NoGates = "no gates: each task is committed on its steps' (or agent's) exit code alone, and nothing checks the result; declare a gate in .planx.yaml or the plan's front matter (gates: [{name: test, command: go test ./...}]) or with --gate test='go test ./...'"

func gatesDetail(gs []gates.Gate) string {
	if len(gs) == 0 {
		return "warning: " + NoGates
	}
	return gateNames(gs) + " (pinned for the whole run)"
}

// gateNames lists the gates gs by name, for a person.
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

// StaleAsk is ask for a question asked before the rollback commit: while
// the person answers, the tree can change, so stale drops the preflight's
// survey and the rollback stages and snapshots as if it had none.
func StaleAsk(ask func(string) bool, stale func()) func(string) bool {
	if ask == nil {
		return nil
	}
	return func(q string) bool {
		stale()
		return ask(q)
	}
}
