package rewind

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/run/wave"
)

// Every run leaves refs under refs/planx/runs/<id>/: its rollback commit
// (base), and what it kept of the user's work: stop snapshots, kept index
// states, slot and wave work, an aborted run's commits and work tree. They
// fill `git log --all` and keep objects alive. Prune removes them for runs
// that ended long enough ago, with the run's output files under
// .git/planx/runs/<id>/. It keeps every run's base ref (it points into the
// branch's history, holds no object of its own, and tells planx where a
// history's runs start: review.Indexed) and never touches the run in
// progress. It also removes the slots runs keep between them (wave.Pool):
// this work tree's, unless a run is in progress in it, and those of linked
// work trees that are gone.

// DefaultPruneAge is how old a run must be for prune to take its records.
const DefaultPruneAge = 14 * 24 * time.Hour

// PruneOptions say which runs prune takes.
type PruneOptions struct {
	OlderThan time.Duration // a run's age, from the time in its id
	DryRun    bool          // list, remove nothing
	Now       time.Time     // zero: the clock
}

// PruneResult is what prune removed (or, dry, would remove).
type PruneResult struct {
	Runs []string // ids, oldest first
	Refs []string
	Dirs []string // repository-relative
	// Slots is how many slots of the pools went, and SlotBytes what
	// their files held.
	Slots     int
	SlotBytes int64
}

// Prune removes the records of the runs older than o.OlderThan (see above).
// It holds the run lock, so no run starts meanwhile.
func Prune(ctx context.Context, repo *gitops.Repo, o PruneOptions) (*PruneResult, error) {
	l, err := runstate.Acquire(repo, "prune")
	if err != nil {
		return nil, err
	}
	defer l.Release()
	current := ""
	if st, err := runstate.Load(repo); err == nil && st != nil {
		current = st.RunID
	}
	now := o.Now
	if now.IsZero() {
		now = time.Now()
	}
	refs, err := repo.Refs().List(ctx, record.RunsRefPrefix)
	if err != nil {
		return nil, fmt.Errorf("prune: %w", err)
	}
	res := &PruneResult{}
	if err := pruneSlots(repo, current != "", o.DryRun, res); err != nil {
		return res, err
	}
	byRun := map[string][]string{}
	for name := range refs {
		id, rest, ok := record.ParseRunRef(name)
		if ok && rest != "base" {
			byRun[id] = append(byRun[id], name)
		}
	}
	if dirs, err := os.ReadDir(filepath.Join(repo.PlanxDir(), "runs")); err == nil {
		for _, d := range dirs {
			if _, seen := byRun[d.Name()]; !seen && d.IsDir() {
				byRun[d.Name()] = nil
			}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(byRun)) {
		started, ok := runStarted(id)
		if id == current || !ok || now.Sub(started) < o.OlderThan {
			continue
		}
		res.Runs = append(res.Runs, id)
		names := slices.Sorted(slices.Values(byRun[id]))
		res.Refs = append(res.Refs, names...)
		dir := runstate.RunDir(repo, id)
		if _, err := os.Stat(dir); err == nil {
			rel, _ := filepath.Rel(repo.Root, dir)
			res.Dirs = append(res.Dirs, filepath.ToSlash(rel))
		}
		if o.DryRun {
			continue
		}
		for _, name := range names {
			if err := repo.Refs().Delete(ctx, name); err != nil {
				return res, fmt.Errorf("prune %s: %w", id, err)
			}
		}
		if err := os.RemoveAll(dir); err != nil {
			return res, fmt.Errorf("prune %s: %w", id, err)
		}
	}
	return res, nil
}

// runStarted reads the time a run id starts with (the local clock, as
// executor's newRunID writes it: 20261125-221926-1515fe); not ok for a name
// that is no run id.
func runStarted(id string) (time.Time, bool) {
	if len(id) < 15 {
		return time.Time{}, false
	}
	t, err := time.ParseInLocation("20060102-150405", id[:15], time.Local)
	return t, err == nil
}

// pruneSlots removes the pools of slots prune may take (wave.Prunable),
// counting what they held into res.
func pruneSlots(repo *gitops.Repo, inProgress, dry bool, res *PruneResult) error {
	for _, root := range wave.Prunable(repo, inProgress) {
		n, bytes := wave.PoolSize(root)
		res.Slots += n
		res.SlotBytes += bytes
		if dry {
			continue
		}
		if err := wave.RemovePool(repo, root); err != nil {
			return fmt.Errorf("prune the slots in %s: %w", root, err)
		}
	}
	return nil
}
