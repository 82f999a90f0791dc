// Package handoff carries a run between CI jobs (planx ci start, task,
// land): the run as planx keeps it outside the history (its state, with
// the execution log, its output files and its records under .git/planx)
// is snapshot into a commit on the branch's tip and pushed as one ref; a
// job in a fresh clone fetches it, puts the files back and the branch at
// that tip, and the run goes on there as after a crash. A task job
// publishes its result (its work under the run's work ref, its log entry
// and output files under the run's ci ref), which the landing job fetches,
// checks against the work's tree and merges into the state. It runs no
// task and lands nothing: the run's own code does (executor's HandOff,
// RunTask and Resume).
package handoff

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/runstate"
)

// Carrier carries the run of a CI workflow run (CI, its id) through the
// remote Remote of Repo.
type Carrier struct {
	Repo   *gitops.Repo
	Remote string
	CI     string
}

// StateRef is the ref of a CI run's state: a commit whose parent is the
// branch's tip and whose tree holds .git/planx's files of the run.
func StateRef(ci string) string { return "refs/planx/ci/" + ci + "/state" }

// ResultRef is the ref of a task job's result: a commit on the task's work
// whose tree holds its log entry (entry.json) and its output files.
func ResultRef(runID, task string) string { return record.RunRef(runID, "ci/"+task) }

// CheckID refuses a CI run id that cannot name a ref.
func CheckID(ci string) error {
	if ci == "" || strings.ContainsAny(ci, " ~^:?*[\\/") || strings.HasPrefix(ci, "-") || strings.Contains(ci, "..") {
		return fmt.Errorf("%w: %q is not a usable CI run id (letters, digits, - and _)", gitops.ErrRepoState, ci)
	}
	return nil
}

// kept says whether a file under .git/planx travels with the run: not the
// slots, kept work trees and locks, which belong to one clone.
func kept(rel string) bool {
	first, _, _ := strings.Cut(rel, "/")
	return first != "slots" && first != "worktrees" && !strings.HasSuffix(rel, ".lock")
}

// snapshot reads the files of .git/planx that travel.
func snapshot(dir string) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir() && rel != "." && !kept(rel):
			return filepath.SkipDir
		case !d.Type().IsRegular() || !kept(rel):
			return nil
		}
		b, err := os.ReadFile(p)
		files[rel] = b
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("handoff: read the run's files: %w", err)
	}
	return files, nil
}

// commitFiles makes a commit of files on parent.
func (c Carrier) commitFiles(ctx context.Context, files map[string][]byte, parent gitops.SHA, msg string) (gitops.SHA, error) {
	empty, err := c.Repo.Objects().EmptyTree(ctx)
	if err != nil {
		return "", err
	}
	tree, err := c.Repo.Objects().TreeWithFiles(ctx, empty, files)
	if err != nil {
		return "", err
	}
	return c.Repo.Objects().CommitTree(ctx, tree, msg, parent, false)
}

// Publish snapshots the run as this clone has it now and pushes it with
// the branch: the branch (fast-forward only: a push by someone else
// meanwhile fails it), the run's refs and the state ref.
func (c Carrier) Publish(ctx context.Context, st *runstate.State) error {
	files, err := snapshot(c.Repo.PlanxDir())
	if err != nil {
		return err
	}
	head, err := c.Repo.Head(ctx)
	if err != nil {
		return err
	}
	if head.Branch != st.Branch {
		return fmt.Errorf("%w: HEAD is on %q, the run's branch is %q", gitops.ErrRepoState, head.Branch, st.Branch)
	}
	sha, err := c.commitFiles(ctx, files, head.SHA, "planx: run "+st.RunID+" handed off (CI run "+c.CI+")\n")
	if err != nil {
		return err
	}
	return c.Repo.Remote(c.Remote).Push(ctx, c.withNotes(ctx, "HEAD:refs/heads/"+st.Branch, "+"+string(sha)+":"+StateRef(c.CI),
		"+"+record.RunsRefPrefix+st.RunID+"/*:"+record.RunsRefPrefix+st.RunID+"/*")...)
}

// PublishEnd pushes the branch of a run that completed here, and its gate
// notes, and removes the CI run's state ref: nothing is left to resume.
func (c Carrier) PublishEnd(ctx context.Context) error {
	head, err := c.Repo.Head(ctx)
	if err != nil {
		return err
	}
	if head.Branch == "" {
		return fmt.Errorf("%w: HEAD is detached: no branch to push", gitops.ErrRepoState)
	}
	refspecs := []string{"HEAD:refs/heads/" + head.Branch}
	if sha, err := c.Repo.Refs().Resolve(ctx, StateRef(c.CI)); err == nil && sha != "" {
		// Restored from it: the remote has it (a run that ends in its
		// start job never had one).
		refspecs = append(refspecs, ":"+StateRef(c.CI))
	}
	return c.Repo.Remote(c.Remote).Push(ctx, c.withNotes(ctx, refspecs...)...)
}

// notesRef holds the gate outputs of planx's commits (land.NoteGates).
const notesRef = "refs/notes/planx"

// withNotes adds the gate notes to refspecs when this clone has them: a
// note added here goes with the commits it is about (the remote's notes
// were fetched before, so the push is a fast-forward).
func (c Carrier) withNotes(ctx context.Context, refspecs ...string) []string {
	if sha, err := c.Repo.Refs().Resolve(ctx, notesRef); err == nil && sha != "" {
		refspecs = append(refspecs, notesRef+":"+notesRef)
	}
	return refspecs
}

// Restore fetches the run's state, puts its files into .git/planx and the
// current branch (the run's) at the tip the state was published on. The
// clone must hold no run of its own.
func (c Carrier) Restore(ctx context.Context) (*runstate.State, error) {
	ref := StateRef(c.CI)
	if err := c.Repo.Remote(c.Remote).Fetch(ctx, "+"+ref+":"+ref); err != nil {
		return nil, fmt.Errorf("%w: CI run %s: no state on %s (did its start job run?): %w", gitops.ErrRepoState, c.CI, c.Remote, err)
	}
	sha, err := c.Repo.Refs().Resolve(ctx, ref)
	if err != nil {
		return nil, err
	}
	tree, err := c.Repo.Objects().TreeOf(ctx, sha)
	if err != nil {
		return nil, err
	}
	files, err := c.Repo.Objects().Files(ctx, tree)
	if err != nil {
		return nil, err
	}
	if err := writeFiles(c.Repo.PlanxDir(), files); err != nil {
		return nil, err
	}
	st, err := runstate.Load(c.Repo)
	if err != nil || st == nil {
		return nil, fmt.Errorf("%w: CI run %s: its state holds no run: %v", gitops.ErrRepoState, c.CI, err)
	}
	prefix := record.RunsRefPrefix + st.RunID + "/"
	if err := c.Repo.Remote(c.Remote).Fetch(ctx, "+"+prefix+"*:"+prefix+"*", "+"+notesRef+"*:"+notesRef+"*"); err != nil {
		return nil, err
	}
	head, err := c.Repo.Head(ctx)
	if err != nil {
		return nil, err
	}
	if head.Branch != st.Branch {
		return nil, fmt.Errorf("%w: HEAD is on %q, the run's branch is %q: check out that branch", gitops.ErrRepoState, head.Branch, st.Branch)
	}
	tip, err := c.Repo.Refs().Resolve(ctx, string(sha)+"^1")
	if err != nil {
		return nil, err
	}
	return st, c.Repo.ResetHard(ctx, tip)
}

// writeFiles writes files under dir, making their directories.
func writeFiles(dir string, files map[string][]byte) error {
	for rel, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if !strings.HasPrefix(p, dir+string(filepath.Separator)) {
			return fmt.Errorf("handoff: %q is outside %s", rel, dir)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("handoff: %w", err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return fmt.Errorf("handoff: %w", err)
		}
	}
	return nil
}
