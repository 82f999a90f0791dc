package rewind

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/run/wave"
)

// Kept is a parallel wave's work that abort keeps under a ref.
type Kept struct {
	Name string // the task (or the work tree's name, for a slot)
	Ref  string
	What KeptKind
}

// KeptKind says what a KeptWork holds.
type KeptKind string

// What abort keeps of a parallel wave.
const (
	KeptDone        KeptKind = "done"        // a task's finished work, never integrated
	KeptFailed      KeptKind = "failed"      // the work tree a task failed in
	KeptInterrupted KeptKind = "interrupted" // a slot holding a stopped task's changes
)

// keepWave is keepTraces for the parallel waves of a run: the work of
// tasks done in their work trees stays in its refs (listed), the work
// trees the run leaves (a failed task's, or a slot a stopped task had
// changed) are kept as commits under refs/planx/runs/<run>/worktrees/
// (listed with those a stop kept there already), and the wave's staging
// ref, which only repeats the run's own commits, goes. The failed tasks'
// work trees go with the run's state (endRun); the slots of the work
// tree's pool are cleaned then, and stay for the next run.
func (u *rewind) keepWave(ctx context.Context, res *Result) error {
	id := u.st.RunID
	refs, err := u.repo.Refs().List(ctx, record.RunRef(id, ""))
	if err != nil {
		return err
	}
	for name := range refs {
		if task, ok := strings.CutPrefix(name, record.WorkRef(id, "")); ok {
			res.Wave = append(res.Wave, Kept{Name: task, Ref: name, What: KeptDone})
		}
		if wt, ok := strings.CutPrefix(name, record.WorktreeRef(id, "")); ok {
			res.Wave = append(res.Wave, Kept{Name: wt, Ref: name, What: keptKind(wt)})
		}
	}
	if _, ok := refs[record.WaveRef(id)]; ok {
		if err := u.repo.Refs().Delete(ctx, record.WaveRef(id)); err != nil {
			return err
		}
	}
	done := doneTrees(ctx, u.repo, id)
	var dirs []string
	entries, _ := os.ReadDir(wave.Dir(u.repo, id, ""))
	for _, d := range entries {
		dirs = append(dirs, filepath.Join(wave.Dir(u.repo, id, ""), d.Name()))
	}
	// The pool's slots: a crash leaves a stopped task's work there.
	for _, dir := range append(dirs, wave.Slots(u.repo)...) {
		k, err := keepWorktree(ctx, u.repo, u.st, dir, filepath.Base(dir), done)
		if err != nil {
			return fmt.Errorf("keep work tree %s: %w", filepath.Base(dir), err)
		}
		if k != nil {
			res.Wave = append(res.Wave, *k)
		}
	}
	sort.Slice(res.Wave, func(i, j int) bool { return res.Wave[i].Ref < res.Wave[j].Ref })
	return nil
}

// doneTrees are the trees of the work of a run's wave tasks done in their
// work trees and not yet integrated (their work refs).
func doneTrees(ctx context.Context, repo *gitops.Repo, runID string) map[gitops.SHA]bool {
	done := map[gitops.SHA]bool{}
	refs, _ := repo.Refs().List(ctx, record.WorkRef(runID, ""))
	for _, sha := range refs {
		if tree, err := repo.Objects().TreeOf(ctx, sha); err == nil {
			done[tree] = true
		}
	}
	return done
}

// keptKind says what the work tree name (a slot, or a failed task's) held.
func keptKind(name string) KeptKind {
	if strings.HasPrefix(name, "slot") {
		return KeptInterrupted
	}
	return KeptFailed
}

// keepWorktree commits what the work tree at dir holds (its untracked
// files too) under a ref, when it holds something a person could want: a
// failed task's work tree always, a slot at the base of the wave in flight
// only when a task left changes in it that are not a done task's work
// (done: their trees), which a slot keeps until its next task. It returns
// nil for a slot with nothing else, or a directory that is no work tree.
// A ref an earlier stop wrote for a work tree of the same name is not
// replaced: the new one gets a suffix.
func keepWorktree(ctx context.Context, repo *gitops.Repo, st *runstate.State, dir, name string, done map[gitops.SHA]bool) (*Kept, error) {
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		return nil, nil
	}
	wt, err := gitops.Open(ctx, dir)
	if err != nil {
		return nil, nil // half made: nothing was done in it
	}
	head, err := wt.Head(ctx)
	if err != nil {
		return nil, err
	}
	what := keptKind(name)
	if what == KeptInterrupted {
		// Only a slot at the base of a wave in flight can hold a task's
		// work; the others are clean checkouts (gates, the judge's runs) a
		// stop left as they were.
		if st.WaveBase == "" || head.SHA != st.WaveBase {
			return nil, nil
		}
		dirty, err := wt.Dirty(ctx)
		if err != nil || !dirty {
			return nil, err
		}
	}
	id := st.RunID
	snap, err := wt.Commits().Snapshot(ctx, fmt.Sprintf("planx: work tree %s of run %s\n\n%s: %s\n", name, id, record.TrailerRun, id), head.SHA)
	if err != nil {
		return nil, err
	}
	if what == KeptInterrupted {
		if tree, err := wt.Objects().TreeOf(ctx, snap); err != nil || done[tree] {
			return nil, err
		}
	}
	ref := record.WorktreeRef(id, name)
	for n := 2; ; n++ {
		sha, err := repo.Refs().Resolve(ctx, ref)
		if err != nil || sha == "" {
			break
		}
		ref = record.WorktreeRef(id, fmt.Sprintf("%s-%d", name, n))
	}
	if err := repo.Refs().Update(ctx, ref, snap, "", "planx: what a wave's work tree held"); err != nil {
		return nil, err
	}
	return &Kept{Name: name, Ref: ref, What: what}, nil
}

// SlotKeeper keeps what a work tree of run st holds as an abort does, for
// wave.DropSlots and wave.KeepFailed. The trees of the wave's done work (a
// slot holding one is not kept) are listed once, at the first slot.
func SlotKeeper(repo *gitops.Repo, st *runstate.State) wave.KeepFunc {
	var once sync.Once
	var done map[gitops.SHA]bool
	return func(ctx context.Context, dir, name string) (string, error) {
		once.Do(func() { done = doneTrees(ctx, repo, st.RunID) })
		k, err := keepWorktree(ctx, repo, st, dir, name, done)
		if k == nil {
			return "", err
		}
		return k.Ref, err
	}
}
