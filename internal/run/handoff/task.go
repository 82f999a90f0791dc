package handoff

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/runstate"
)

// WorkRef is a wave task's work ref (wave.WorkRef's name, which package
// handoff may not import).
func WorkRef(runID, task string) string { return record.RunRef(runID, "work/"+task) }

// PublishTask pushes task's result as this clone's run has it after
// drive.RunTask: its work (the work ref) and its result commit, on the
// work, holding its log entry, its output files (the run's output
// directory's files named after it) and the job's time for it, wall. Nothing else of the clone travels:
// its gate records stay here, the landing does not take a runner's word.
func (c Carrier) PublishTask(ctx context.Context, st *runstate.State, task string, wall time.Duration) error {
	work, err := c.Repo.Refs().Resolve(ctx, WorkRef(st.RunID, task))
	if err != nil || work == "" {
		return fmt.Errorf("%w: %s has no work to publish", gitops.ErrRepoState, task)
	}
	lt := st.Log.TaskByID(task)
	if lt == nil {
		return fmt.Errorf("%w: %s has no log entry", gitops.ErrRepoState, task)
	}
	entry, err := json.MarshalIndent(lt, "", "  ")
	if err != nil {
		return fmt.Errorf("handoff: %w", err)
	}
	files, err := snapshot(runstate.RunDir(c.Repo, st.RunID))
	if err != nil {
		return err
	}
	jb, err := json.Marshal(job{Wall: wall})
	if err != nil {
		return fmt.Errorf("handoff: %w", err)
	}
	out := map[string][]byte{"entry.json": entry, "job.json": jb}
	for rel, b := range files {
		if strings.HasPrefix(path.Base(rel), task+"-") {
			out["runs/"+st.RunID+"/"+rel] = b
		}
	}
	sha, err := c.commitFiles(ctx, out, work, "planx: "+task+"'s result in CI run "+c.CI+"\n")
	if err != nil {
		return err
	}
	return c.Repo.Remote(c.Remote).Push(ctx, "+"+string(work)+":"+WorkRef(st.RunID, task), "+"+string(sha)+":"+ResultRef(st.RunID, task))
}

// KeptRef is where a wave task's failed work tree is kept
// (rewind's worktrees/<task>).
func KeptRef(runID, task string) string { return record.RunRef(runID, "worktrees/"+task) }

// PublishFailed pushes what the work tree task failed in held, kept under
// KeptRef by drive.RunTask, so that the person (and planx abort, which
// lists it) finds it after the runner is gone. Nothing else of the failure
// travels: its landing job fails the task.
func (c Carrier) PublishFailed(ctx context.Context, st *runstate.State, task string) error {
	kept, err := c.Repo.Refs().Resolve(ctx, KeptRef(st.RunID, task))
	if err != nil || kept == "" {
		return err
	}
	return c.Repo.Remote(c.Remote).Push(ctx, "+"+string(kept)+":"+KeptRef(st.RunID, task))
}

// Taken is what the landing made of one task job's result.
type Taken struct {
	Task string
	Work gitops.SHA    // "" when not taken
	Why  string        // why not, when not taken
	Wall time.Duration // the task job's own time for the task, as it reported it
	Cost record.Cost   // what its agent reported spending
	Log  *execlog.Task // its log entry, as taken
}

// Gather takes into st, saved, the results the wave's task jobs published
// that hold up: each becomes a task done in the wave (WaveDone, its work
// ref, its log entry and output files), as a task done before a crash.
// A result is checked against its work before it is taken (Check); one
// that fails the check, or is missing, is left out, and the landing then
// fails that task as a failed task job. planRel is the plan's path in the
// repository, gates the names of the gates a task's own run must have
// passed. It returns what it made of each task of the wave.
func (c Carrier) Gather(ctx context.Context, st *runstate.State, planRel string, gates func(task string) []string) ([]Taken, error) {
	var out []Taken
	for _, id := range st.Wave {
		tk := Taken{Task: string(id)}
		if slices.Contains(st.WaveDone, id) {
			continue
		}
		res, err := c.Repo.Refs().Resolve(ctx, ResultRef(st.RunID, tk.Task))
		if err != nil || res == "" {
			tk.Why = "its task job published no result"
			out = append(out, tk)
			continue
		}
		lt, files, job, err := c.result(ctx, res)
		if err == nil {
			err = c.Check(ctx, st, Claim{PlanRel: planRel, Task: tk.Task, Result: res, Entry: lt, Gates: gates(tk.Task)})
		}
		if err != nil {
			tk.Why = "its task job's result is not taken: " + err.Error()
			out = append(out, tk)
			continue
		}
		entry := st.Log.TaskByID(tk.Task)
		if entry == nil {
			return nil, fmt.Errorf("%w: %s is in the wave but has no log entry in the run's state", gitops.ErrRepoState, tk.Task)
		}
		if err := writeFiles(c.Repo.PlanxDir(), files); err != nil {
			return nil, err
		}
		*entry = *lt
		st.WaveDone = append(st.WaveDone, id)
		tk.Wall, tk.Cost, tk.Log = job.Wall, lt.Cost, lt
		if tk.Work, err = c.Repo.Refs().Resolve(ctx, WorkRef(st.RunID, tk.Task)); err != nil {
			return nil, err
		}
		out = append(out, tk)
	}
	return out, st.Save(c.Repo)
}

// job is what a task job says of itself beside its log entry (job.json).
type job struct {
	Wall time.Duration `json:"wall"`
}

// result reads a result commit: its log entry, its output files and what
// the job said of itself.
func (c Carrier) result(ctx context.Context, res gitops.SHA) (*execlog.Task, map[string][]byte, job, error) {
	var jb job
	tree, err := c.Repo.Objects().TreeOf(ctx, res)
	if err != nil {
		return nil, nil, jb, err
	}
	files, err := c.Repo.Objects().Files(ctx, tree)
	if err != nil {
		return nil, nil, jb, err
	}
	var lt execlog.Task
	if err := json.Unmarshal(files["entry.json"], &lt); err != nil {
		return nil, nil, jb, fmt.Errorf("its log entry: %w", err)
	}
	if b, ok := files["job.json"]; ok {
		if err := json.Unmarshal(b, &jb); err != nil {
			return nil, nil, jb, fmt.Errorf("its job.json: %w", err)
		}
	}
	delete(files, "entry.json")
	delete(files, "job.json")
	for rel := range files {
		if !strings.HasPrefix(rel, "runs/") {
			delete(files, rel)
		}
	}
	return &lt, files, jb, nil
}

// Claim is a task job's result as the landing checks it.
type Claim struct {
	PlanRel string     // the plan's path: planx writes it, never a task
	Task    string     // the task the result is for
	Result  gitops.SHA // its result commit
	Entry   *execlog.Task
	Gates   []string // the gates the task's own run must have passed
}

// Check holds a task job's result to what the landing can see for itself,
// before anything of it is taken (verify's rules, as far as a result
// not yet committed has them): its result commit sits on its work, which
// is one commit on the wave's base; the work changes something, exactly
// the files its entry lists, none of them the plan or the run's log
// (planx writes those itself at integration); its entry is the task's,
// not failed, and records every gate the task selects as passed. The
// gates then run again on the combined tree (the wave's integration gate).
func (c Carrier) Check(ctx context.Context, st *runstate.State, cl Claim) error {
	work, err := c.commitsOn(ctx, st, cl)
	if err != nil {
		return err
	}
	changed, err := c.Repo.History().ChangedFiles(ctx, st.WaveBase, work)
	if err != nil {
		return err
	}
	if len(changed) == 0 {
		return fmt.Errorf("the work %s changes nothing", work.Short())
	}
	for _, f := range changed {
		if f == cl.PlanRel || f == st.Log.Path {
			return fmt.Errorf("the work changes %s, which planx writes itself", f)
		}
	}
	slices.Sort(changed)
	if listed := slices.Sorted(slices.Values(cl.Entry.Files)); !slices.Equal(changed, listed) {
		return fmt.Errorf("the work changes %v, its log entry says %v", changed, listed)
	}
	lt := cl.Entry
	if lt.ID != cl.Task || lt.Status == record.TaskFailed || lt.Failure != "" {
		return fmt.Errorf("its log entry is %s's, %s", lt.ID, lt.Status)
	}
	passed := map[string]bool{}
	for _, g := range lt.Gates {
		if !g.Passed {
			return fmt.Errorf("its gate %s did not pass", g.Name)
		}
		passed[g.Name] = true
	}
	for _, g := range cl.Gates {
		if !passed[g] {
			return fmt.Errorf("its log entry records no pass of its gate %s", g)
		}
	}
	return nil
}

// commitsOn checks the result's commits: the result on the task's work,
// the work one commit (not a merge) on the wave's base. It returns the
// work.
func (c Carrier) commitsOn(ctx context.Context, st *runstate.State, cl Claim) (gitops.SHA, error) {
	work, err := c.Repo.Refs().Resolve(ctx, WorkRef(st.RunID, cl.Task))
	if err != nil || work == "" {
		return "", fmt.Errorf("no work ref %s", WorkRef(st.RunID, cl.Task))
	}
	if on, err := c.Repo.Refs().Resolve(ctx, string(cl.Result)+"^1"); err != nil || on != work {
		return "", fmt.Errorf("the result is not on the task's work %s", work.Short())
	}
	if base, err := c.Repo.Refs().Resolve(ctx, string(work)+"^1"); err != nil || base != st.WaveBase {
		return "", fmt.Errorf("the work %s is not a commit on the wave's base %s", work.Short(), st.WaveBase.Short())
	}
	if second, err := c.Repo.Refs().Resolve(ctx, string(work)+"^2"); err == nil && second != "" {
		return "", fmt.Errorf("the work %s is a merge", work.Short())
	}
	return work, nil
}
