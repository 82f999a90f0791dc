package review

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gitops"
)

// ErrAmbiguous: a run id prefix names several runs; the command layer
// reports it as a usage error, as git refuses an ambiguous short hash.
var ErrAmbiguous = errors.New("ambiguous run id")

// TaskQuery names the task commit `planx show T003` is after.
type TaskQuery struct {
	ID   string // the task id, T003
	Plan string // the plan's repo-relative path, as the Refs trailer has it; "" for any
	Run  string // a run id or a prefix of one that names one run; "" for any
}

// Found is the task commit a query chose, its run, and the commits for
// the task in the other runs the query matched (newest first).
type Found struct {
	Run    *Run
	Task   *TaskCommit
	Others []Found
}

// FindTask returns the newest commit of q.ID among the runs on the
// first-parent history of from ("" for HEAD) that q's plan and run select.
// Task ids are per plan, and a plan run again runs its tasks again, so
// several runs can hold one: the newest is taken, like git taking the first
// of several refs a name matches, and Others says which were passed over.
// History is read back to the oldest run this clone recorded (Indexed),
// and all of it when that finds nothing.
func FindTask(ctx context.Context, repo *gitops.Repo, from gitops.SHA, q TaskQuery) (Found, error) {
	return findTask(ctx, repo, from, q, func(r *Run) *TaskCommit { return r.Task(q.ID) })
}

// findTask is FindTask with match saying which commit of a run is the task's.
func findTask(ctx context.Context, repo *gitops.Repo, from gitops.SHA, q TaskQuery, match func(*Run) *TaskCommit) (Found, error) {
	runs, stoppedAt, err := Indexed(ctx, repo, from, q.Plan)
	head := firstNonEmpty(string(from.Short()), "HEAD")
	found, ferr := pick(runs, q, head, match)
	if errors.Is(ferr, ErrNotFound) && stoppedAt != "" && err == nil {
		// Runs made in another clone, older than any recorded here.
		runs, err = Runs(ctx, repo, from, q.Plan)
		found, ferr = pick(runs, q, head, match)
	}
	switch {
	case errors.Is(ferr, ErrNotFound) && err != nil:
		// What stopped the reading (a shallow clone: fetch more) is the
		// error to act on, and gives the exit code.
		return Found{}, fmt.Errorf("%v: %w", ferr, err)
	case ferr != nil:
		return Found{}, ferr
	}
	return found, err
}

// pick chooses q's task commit among runs (newest first), read from the
// history of head.
func pick(runs []Run, q TaskQuery, head string, match func(*Run) *TaskCommit) (Found, error) {
	if q.Run != "" {
		sel := RunsWithPrefix(runs, q.Run)
		var ids []string
		for _, r := range sel {
			if !slices.Contains(ids, r.ID) {
				ids = append(ids, r.ID)
			}
		}
		if len(ids) > 1 {
			return Found{}, fmt.Errorf("%w: %q is the start of %d runs' ids (%s): give more of it", ErrAmbiguous, q.Run, len(ids), strings.Join(ids, ", "))
		}
		if len(ids) == 0 {
			return Found{}, fmt.Errorf("%w: no run %s%s in the history of %s (planx log lists the runs)", ErrNotFound, q.Run, planSuffix(q.Plan), head)
		}
		runs = sel
	}
	var f Found
	for i := range runs {
		t := match(&runs[i])
		switch {
		case t == nil:
		case f.Task == nil:
			f.Run, f.Task = &runs[i], t
		default:
			f.Others = append(f.Others, Found{Run: &runs[i], Task: t})
		}
	}
	switch {
	case f.Task != nil:
		return f, nil
	case len(runs) == 0:
		return Found{}, fmt.Errorf("%w: no planx run%s in the history of %s", ErrNotFound, planSuffix(q.Plan), head)
	case q.Run != "":
		return Found{}, fmt.Errorf("%w: run %s has no commit for %s", ErrNotFound, runs[0].ID, q.ID)
	default:
		return Found{}, fmt.Errorf("%w: no planx run%s in the history of %s has a commit for %s", ErrNotFound, planSuffix(q.Plan), head, q.ID)
	}
}

// RunsWithPrefix keeps the runs whose id starts with prefix.
func RunsWithPrefix(runs []Run, prefix string) []Run {
	var sel []Run
	for _, r := range runs {
		if strings.HasPrefix(r.ID, prefix) {
			sel = append(sel, r)
		}
	}
	return sel
}

func planSuffix(plan string) string {
	if plan == "" {
		return ""
	}
	return " of plan " + plan
}
