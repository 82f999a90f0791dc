package verify

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planx-dev/planx/internal/judge"
)

// Ignored files are in no commit, not even the rollback commit: a task that
// deletes them (git clean -fdx) or stashes them (git stash -a) would take
// bytes nothing else holds. The run copies the user's own into the git
// directory as it starts (KeepIgnored) and puts back those a task deleted
// (PutBack). The copies are plain files, never objects: a secret in
// local.env must not reach a commit, a ref or a push.

// KeepIgnored copies into dst the regular files under the ignored entries
// of the work tree at root that are the user's own data: not build
// outputs (BuildOutput), not the dependency environments envs (a build
// makes those again), in path order while their sizes add up to at most
// limit. It returns the files it did not keep: over the limit, or
// unreadable.
func KeepIgnored(root, dst string, entries, envs []string, limit int64) (left []string) {
	paths, left := keepable(root, entries, envs, limit)
	for _, p := range paths {
		if err := copyFile(relJoin(root, p), relJoin(dst, p)); err != nil {
			left = append(left, p)
		}
	}
	return left
}

// PutBack copies back the kept files in src the work tree at root no
// longer has (nothing at their path; a file where one of their directories
// was is the task's, left alone) and returns their paths.
func PutBack(root, src string) ([]string, error) {
	var back []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(src, p)
		dst := relJoin(root, filepath.ToSlash(rel))
		if _, err := os.Lstat(dst); !errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err := copyFile(p, dst); err != nil {
			return err
		}
		back = append(back, filepath.ToSlash(rel))
		return nil
	})
	return back, err
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

// copyFile copies the regular file src to dst with its permissions, making
// dst's directories.
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
	return out.Close()
}

// keepable lists the regular files under the ignored entries of root that
// are the user's own data (not BuildOutput, not one of the dependency
// environments skip), in path order while their sizes add up to at most
// limit, and those left over.
func keepable(root string, entries, skip []string, limit int64) (keep, left []string) {
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
				left = append(left, rel)
				return nil
			}
			total += fi.Size()
			keep = append(keep, rel)
			return nil
		})
	}
	return keep, left
}
