package verify

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/planx-dev/planx/internal/judge"
)

// Ignored files are in no commit, not even the rollback commit: a task that
// deletes them (git clean -fdx), stashes them (git stash -a) or writes
// over them (echo oops > local.env) would take bytes nothing else holds.
// The run copies the user's own into the git directory as it starts
// (KeepIgnored) and puts back those a task deleted or changed (PutBack),
// keeping the task's version aside: a step may regenerate ignored output
// on purpose. The copies are plain files, never objects: a secret in
// local.env must not reach a commit, a ref or a push.

// Left is an ignored file KeepIgnored did not keep, as it was then: a
// task that deletes or changes it is named when the run ends (Lost).
type Left struct {
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"` // unix nanoseconds
}

// KeepIgnored copies into dst the regular files under the ignored entries
// of the work tree at root that are the user's own data: not build
// outputs (BuildOutput), not the dependency environments envs (a build
// makes those again), in path order while their sizes add up to at most
// limit. Each copy has its original's modification time, which tells an
// untouched file without reading it. It returns the files it did not
// keep: over the limit, or unreadable.
func KeepIgnored(root, dst string, entries, envs []string, limit int64) (left []Left) {
	paths, left := keepable(root, entries, envs, limit)
	for _, p := range paths {
		if err := copyFile(relJoin(root, p), relJoin(dst, p)); err != nil {
			fi, _ := os.Lstat(relJoin(root, p))
			left = append(left, leftOf(p, fi))
		}
	}
	return left
}

// Back is a kept file PutBack put back. Aside is the work tree's path
// whose content was the task's and now lies under the aside directory:
// the file itself when the task wrote over it, a file (or link) where
// one of its directories was; "" when the task had deleted it.
type Back struct {
	Path, Aside string
}

// PutBack copies back the kept files in src that the work tree at root no
// longer has as they were kept: gone, other bytes, something else at
// their path or a file where one of their directories was. What the task
// left in their place is moved under aside first, at the same relative
// path. It returns what it put back, in path order.
func PutBack(root, src, aside string) ([]Back, error) {
	var back []Back
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(src, p)
		b, changed, err := putBackOne(root, p, filepath.ToSlash(rel), aside)
		if err != nil {
			return fmt.Errorf("put back %s: %w", filepath.ToSlash(rel), err)
		}
		if changed {
			back = append(back, b)
		}
		return nil
	})
	return back, err
}

// putBackOne puts back the kept file kept at rel when the work tree does
// not have it as kept (see PutBack).
func putBackOne(root, kept, rel, aside string) (Back, bool, error) {
	b := Back{Path: rel}
	blocker, err := blocking(root, rel)
	if err != nil {
		return b, false, err
	}
	dst := relJoin(root, rel)
	if blocker == "" {
		fi, err := os.Lstat(dst)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return b, false, err
		case fi.Mode().IsRegular() && sameFile(kept, dst, fi):
			return b, false, nil
		default:
			blocker = rel
		}
	}
	if blocker != "" {
		if err := moveAside(root, blocker, aside); err != nil {
			return b, false, err
		}
		b.Aside = blocker
	}
	return b, true, copyFile(kept, dst)
}

// blocking returns the first of rel's parent directories that the work
// tree at root has as something other than a directory ("" for none).
func blocking(root, rel string) (string, error) {
	parts := strings.Split(rel, "/")
	for i := 1; i < len(parts); i++ {
		pre := strings.Join(parts[:i], "/")
		fi, err := os.Lstat(relJoin(root, pre))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return "", nil
		case err != nil:
			return "", err
		case !fi.IsDir():
			return pre, nil
		}
	}
	return "", nil
}

// sameFile reports whether the regular file dst (fi) holds the bytes of
// the kept copy: the same size and modification time, or the same bytes.
func sameFile(kept, dst string, fi fs.FileInfo) bool {
	ki, err := os.Stat(kept)
	if err != nil || ki.Size() != fi.Size() {
		return false
	}
	if ki.ModTime().Equal(fi.ModTime()) {
		return true
	}
	a, err1 := os.ReadFile(kept)
	b, err2 := os.ReadFile(dst)
	return err1 == nil && err2 == nil && bytes.Equal(a, b)
}

// moveAside moves the work tree's rel under aside, replacing what an
// earlier attempt of the task left there.
func moveAside(root, rel, aside string) error {
	to := relJoin(aside, rel)
	if err := os.RemoveAll(to); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
		return err
	}
	from := relJoin(root, rel)
	err := os.Rename(from, to)
	if !errors.Is(err, syscall.EXDEV) {
		return err
	}
	// The git directory is on another file system (a linked work tree's
	// may be): a file is copied, anything else stays where it is.
	if err := copyFile(from, to); err != nil {
		return err
	}
	return os.Remove(from)
}

// Gone lists the ignored entries (relative to root) that no longer exist.
func Gone(root string, entries []string) []string {
	var gone []string
	for _, p := range entries {
		if _, err := os.Lstat(relJoin(root, strings.TrimSuffix(p, "/"))); errors.Is(err, fs.ErrNotExist) {
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
		fi, err := os.Lstat(relJoin(root, l.Path))
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

// copyFile copies the regular file src to dst with its permissions and
// modification time, making dst's directories.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", src)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chtimes(dst, fi.ModTime(), fi.ModTime())
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
		base := relJoin(root, strings.TrimSuffix(e, "/"))
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
