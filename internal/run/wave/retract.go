package wave

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/planx-dev/planx/gitops"
)

// A landing moves the branch, the index and the work tree from the wave's
// base to its tip with git's two-tree move (gitops.Landing.Tree). Which of
// a person's paths stand in its way, and what of a landing a stop cut to
// take back, are judged here from what git reads: the two commits'
// differences, the index's entries and the work tree's bytes.

// pathsInTheWay lists the paths a Tree(old, new) would write (those where
// the two commits differ) that hold something of the person's: an index
// entry that is not old's (staged), or a work tree file that does not hold
// old's bytes (edited, deleted, or an untracked file where old has none).
// git read-tree refuses to move over any of them; this names them first,
// so that the caller can say which and what to do.
func pathsInTheWay(ctx context.Context, repo *gitops.Repo, old, new gitops.SHA) ([]string, error) {
	l := repo.Landing()
	diff, err := l.Diff(ctx, old, new)
	if err != nil || len(diff) == 0 {
		return nil, err
	}
	if err := repo.Index().Sync(ctx); err != nil {
		return nil, err
	}
	index, err := l.IndexEntries(ctx)
	if err != nil {
		return nil, err
	}
	held, err := holds(ctx, repo, diff, 0)
	if err != nil {
		return nil, err
	}
	var way []string
	for p, d := range diff {
		staged := index[p] != d[0] && !(d[0].Absent() && index[p].Absent())
		if staged || !held[p] {
			way = append(way, p)
		}
	}
	sort.Strings(way)
	return way, nil
}

// retract takes back what a cut Tree(old, new) wrote (a landing stopped
// after git read-tree started and before the branch moved): of the paths
// where HEAD and new differ, the index entries that are new's go back to
// HEAD's, and the work tree files whose bytes are new's are put back as
// HEAD has them (removed where HEAD has none). A path holding anything
// else (a person's edit, or what a person committed) is left as it is.
// Afterwards the index and work tree are as if the advance had never
// begun, relative to wherever HEAD is now, and the advance can be made
// again. It returns the paths it put back.
func retract(ctx context.Context, repo *gitops.Repo, new gitops.SHA) ([]string, error) {
	l := repo.Landing()
	// A write first: it waits for the index lock of a git read-tree that
	// outlived the planx that started it, which must end before its
	// work is judged. (Exit 1 only means some file is changed.)
	if err := l.Refresh(ctx); errors.Is(err, gitops.ErrLocked) {
		return nil, err
	}
	head, err := repo.Refs().Resolve(ctx, "HEAD")
	if err != nil || head == "" || head == new {
		return nil, err
	}
	diff, err := l.Diff(ctx, head, new)
	if err != nil || len(diff) == 0 {
		return nil, err
	}
	if err := l.Settle(ctx); err != nil {
		return nil, err
	}
	index, err := l.IndexEntries(ctx)
	if err != nil {
		return nil, err
	}
	written, err := holds(ctx, repo, diff, 1)
	if err != nil {
		return nil, err
	}
	var staged, inHead, created []string
	for p, d := range diff {
		if index[p] == d[1] || (d[1].Absent() && index[p].Absent()) {
			staged = append(staged, p)
		}
		if !written[p] {
			continue
		}
		if d[0].Absent() {
			created = append(created, p)
		} else {
			inHead = append(inHead, p)
		}
	}
	return putBack(ctx, repo, head, staged, inHead, created)
}

// putBack is retract's writes: the index entries of staged as head has
// them, the files of inHead from head, and created removed.
func putBack(ctx context.Context, repo *gitops.Repo, head gitops.SHA, staged, inHead, created []string) ([]string, error) {
	if len(staged) > 0 {
		if err := repo.ResetIndex(ctx, head, staged); err != nil {
			return nil, fmt.Errorf("put back the index of %d path(s): %w", len(staged), err)
		}
	}
	if len(inHead) > 0 {
		if err := repo.RestoreFiles(ctx, head, inHead); err != nil {
			return nil, fmt.Errorf("put back %d file(s) from %s: %w", len(inHead), head.Short(), err)
		}
	}
	if err := repo.RemoveFiles(created); err != nil {
		return nil, err
	}
	_ = repo.Landing().Refresh(ctx)
	back := append(inHead, created...)
	sort.Strings(back)
	return back, nil
}

// holds reports, for each path of diff, whether the work tree holds what
// the first (side 0) or the second (side 1) commit has there: its bytes
// with its kind of file, or nothing where it has none. Something else in
// the way of the path (a file where the commit has a directory) is not.
func holds(ctx context.Context, repo *gitops.Repo, diff map[string][2]gitops.TreeEntry, side int) (map[string]bool, error) {
	got := map[string]bool{}
	var files []string
	for p, d := range diff {
		fi, err := os.Lstat(filepath.Join(repo.Root, filepath.FromSlash(p)))
		want := d[side]
		switch {
		case errors.Is(err, fs.ErrNotExist):
			got[p] = want.Absent()
		case errors.Is(err, syscall.ENOTDIR):
			got[p] = false
		case err != nil:
			return nil, fmt.Errorf("look at %s: %w", p, err)
		case want.Mode == "120000" && fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(filepath.Join(repo.Root, filepath.FromSlash(p)))
			if err != nil {
				return nil, fmt.Errorf("look at %s: %w", p, err)
			}
			sha, err := repo.Landing().HashBytes(ctx, []byte(target))
			got[p] = err == nil && string(sha) == want.SHA
		case fi.Mode().IsRegular() && (want.Mode == "100755") == (fi.Mode()&0o111 != 0) &&
			(want.Mode == "100644" || want.Mode == "100755") && !strings.Contains(p, "\n"):
			files = append(files, p)
		}
	}
	if len(files) == 0 {
		return got, nil
	}
	// One git for every regular file, hashed as git add would (filters).
	sums, err := repo.Landing().HashFiles(ctx, files)
	if err != nil {
		return nil, err
	}
	for i, p := range files {
		got[p] = string(sums[i]) == diff[p][side].SHA
	}
	return got, nil
}
