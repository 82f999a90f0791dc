package review

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
)

// ErrNotFound: no task commit matches what show was asked for.
var ErrNotFound = errors.New("no such task commit")

var taskIDRE = regexp.MustCompile(`^T[0-9]+$`)

// IsTaskID reports whether s names a task (T003) rather than a revision.
func IsTaskID(s string) bool { return taskIDRE.MatchString(s) }

// Lookup finds the task commit q.ID names: a task ID (T003) among the
// runs reachable from HEAD (FindTask: the newest, and the others it passed
// over), a revision, or the plan's own label of a task (Kiro's 1.2,
// task-master's 3.1) when no revision has that name. q.Plan and q.Run
// narrow the runs; with either, q.ID is taken as a task's ID or label,
// never as a revision.
func Lookup(ctx context.Context, repo *gitops.Repo, q TaskQuery) (Found, error) {
	if IsTaskID(q.ID) || q.Plan != "" || q.Run != "" {
		return findTask(ctx, repo, "", q, labelled(ctx, repo, q.ID))
	}
	t, run, err := TaskAt(ctx, repo, q.ID)
	if !errors.Is(err, errNoRevision) {
		if err != nil {
			return Found{}, err
		}
		return Found{Run: &Run{ID: run, Plan: t.Plan}, Task: &t}, nil
	}
	if f, ferr := findTask(ctx, repo, "", q, labelled(ctx, repo, q.ID)); f.Task != nil {
		return f, ferr
	}
	return Found{}, err
}

// labelled matches a run's commit of the task id or label names; for
// commits without a Planx-Label trailer, through the run's plan.
func labelled(ctx context.Context, repo *gitops.Repo, name string) func(*Run) *TaskCommit {
	return func(r *Run) *TaskCommit {
		if t := r.Task(name); t != nil || IsTaskID(name) {
			return t
		}
		return byPlanLabel(ctx, repo, r, name)
	}
}

// byPlanLabel is the commit of run's task that its plan calls label, for
// commits without a Planx-Label trailer: the plan as the run's last task
// commit has it maps the label to the task's ID.
func byPlanLabel(ctx context.Context, repo *gitops.Repo, run *Run, label string) *TaskCommit {
	if len(run.Tasks) == 0 {
		return nil
	}
	last := run.Tasks[len(run.Tasks)-1]
	src, err := repo.History().ShowFile(ctx, last.Commit, last.Plan)
	if err != nil {
		return nil
	}
	p, err := planparse.Parse(last.Plan, src, planparse.Options{})
	if err != nil {
		return nil
	}
	for _, t := range p.Tasks {
		if t.Label == label {
			return run.Task(string(t.ID))
		}
	}
	return nil
}

// errNoRevision: what TaskAt was given names no commit.
var errNoRevision = errors.New("neither a task id (T003), a task's label in its plan (1.2) nor a commit")

// TaskAt reads the task commit rev names.
func TaskAt(ctx context.Context, repo *gitops.Repo, rev string) (TaskCommit, string, error) {
	sha, err := repo.Refs().Resolve(ctx, rev)
	if err != nil {
		return TaskCommit{}, "", err
	}
	if sha == "" {
		return TaskCommit{}, "", fmt.Errorf("%w: %q is %w", ErrNotFound, rev, errNoRevision)
	}
	cs, err := repo.History().Log(ctx, sha, "", 1)
	if err != nil {
		return TaskCommit{}, "", err
	}
	if len(cs) == 0 {
		return TaskCommit{}, "", fmt.Errorf("%w: %s", ErrNotFound, rev)
	}
	p := classify(cs[0])
	if p.kind != kindTask {
		return TaskCommit{}, "", fmt.Errorf("%w: %s is not a planx task commit (no %s trailer)", ErrNotFound, sha.Short(), "Planx-Task")
	}
	return p.task, p.run, nil
}

// LogSection returns the execution log the task commit changed and the
// task's section of it: from its "### <id> " heading up to the next "### "
// or "## " heading. path is "" when the commit changed no execution log.
func LogSection(ctx context.Context, repo *gitops.Repo, t TaskCommit) (path, section string, err error) {
	files, err := repo.History().ChangedFiles(ctx, t.Parent, t.Commit)
	if err != nil {
		return "", "", err
	}
	for _, f := range files {
		if IsExecutionLog(f) {
			path = f
			break
		}
	}
	if path == "" {
		return "", "", nil
	}
	src, err := repo.History().ShowFile(ctx, t.Commit, path)
	if err != nil {
		return path, "", err
	}
	return path, Section(string(src), t.ID), nil
}

// Section extracts the "### <id> " section of an execution log.
func Section(log, id string) string {
	lines := strings.SplitAfter(log, "\n")
	start := -1
	for i, l := range lines {
		if start < 0 {
			if strings.HasPrefix(l, "### "+id+" ") || strings.TrimRight(l, "\r\n") == "### "+id {
				start = i
			}
			continue
		}
		if strings.HasPrefix(l, "### ") || strings.HasPrefix(l, "## ") {
			return strings.TrimRight(strings.Join(lines[start:i], ""), "\n") + "\n"
		}
	}
	if start < 0 {
		return ""
	}
	return strings.TrimRight(strings.Join(lines[start:], ""), "\n") + "\n"
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
