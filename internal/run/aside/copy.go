package aside

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planx-dev/planx/internal/fsutil"
	"github.com/planx-dev/planx/internal/judge"
	"github.com/planx-dev/planx/internal/run/gaterun"
)

// Ignored files are in no commit, not even the rollback commit: a task that
// deletes them (git clean -fdx), stashes them (git stash -a) or writes
// over them (echo oops > local.env) would take bytes nothing else holds.
// The run copies the user's own into the git directory as it starts
// (Keep) and puts back those a task deleted or changed (gaterun.PutBack),
// keeping the task's version aside: a step may regenerate ignored output
// on purpose. The copies are plain files, never objects: a secret in
// local.env must not reach a commit, a ref or a push.

// Left is an ignored file Copy did not keep, as it was then: a
// task that deletes or changes it is named when the run ends (Lost).
type Left struct {
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"` // unix nanoseconds
}

// Copy copies into dst the regular files under the ignored entries
// of the work tree at root that are the user's own data: not build
// outputs (BuildOutput), not the dependency environments envs (a build
// makes those again), in path order while their sizes add up to at most
// limit. Each copy has its original's modification time, which tells an
// untouched file without reading it. It returns the files it did not
// keep: over the limit, or unreadable.
func Copy(root, dst string, entries, envs []string, limit int64) (left []Left) {
	paths, left := keepable(root, entries, envs, limit)
	for _, p := range paths {
		if err := gaterun.CopyFile(fsutil.Under(root, p), fsutil.Under(dst, p)); err != nil {
			fi, _ := os.Lstat(fsutil.Under(root, p))
			left = append(left, leftOf(p, fi))
		}
	}
	return left
}

// Gone lists the ignored entries (relative to root) that no longer exist.
func Gone(root string, entries []string) []string {
	var gone []string
	for _, p := range entries {
		if _, err := os.Lstat(fsutil.Under(root, strings.TrimSuffix(p, "/"))); errors.Is(err, fs.ErrNotExist) {
			gone = append(gone, p)
		}
	}
	return gone
}

// Lost returns the files of left the work tree at root no longer has as
// they were: gone, or another size or modification time.
func Lost(root string, left []Left) []Left {
	var lost []Left
	for _, l := range left {
		fi, err := os.Lstat(fsutil.Under(root, l.Path))
		if err != nil || !fi.Mode().IsRegular() || leftOf(l.Path, fi) != l {
			lost = append(lost, l)
		}
	}
	return lost
}

func leftOf(p string, fi fs.FileInfo) Left {
	if fi == nil {
		return Left{Path: p, Size: -1}
	}
	return Left{Path: p, Size: fi.Size(), MTime: fi.ModTime().UnixNano()}
}

// keepable lists the regular files under the ignored entries of root that
// are the user's own data (not BuildOutput, not one of the dependency
// environments skip), in path order while their sizes add up to at most
// limit, and those left over.
func keepable(root string, entries, skip []string, limit int64) (keep []string, left []Left) {
	var total int64
	for _, e := range entries {
		if judge.BuildOutput(e) || slices.Contains(skip, e) {
			continue
		}
		base := fsutil.Under(root, strings.TrimSuffix(e, "/"))
		_ = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if d.Name() == ".git" || (p != base && judge.BuildOutput(rel+"/")) {
					return filepath.SkipDir
				}
				return nil
			}
			fi, err := d.Info()
			if err != nil || !fi.Mode().IsRegular() || judge.BuildOutput(rel) {
				return nil
			}
			if total+fi.Size() > limit {
				left = append(left, leftOf(rel, fi))
				return nil
			}
			total += fi.Size()
			keep = append(keep, rel)
			return nil
		})
	}
	return keep, left
}

// relJoin is the path of p, slash-separated and relative to root.
