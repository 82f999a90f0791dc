package gaterun

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

	"github.com/planx-dev/planx/internal/textsafe"
)

// The run's copy of the user's ignored files (aside.Copy) is put
// back file by file: into the user's work tree after a task
// (verify.Tree.CheckIgnored), or into a wave task's own copy of them
// (Own.Settle). These are the file operations both use.

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
	dst := relPath(root, rel)
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
	return b, true, CopyFile(kept, dst)
}

// blocking returns the first of rel's parent directories that the work
// tree at root has as something other than a directory ("" for none).
func blocking(root, rel string) (string, error) {
	parts := strings.Split(rel, "/")
	for i := 1; i < len(parts); i++ {
		pre := strings.Join(parts[:i], "/")
		fi, err := os.Lstat(relPath(root, pre))
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
	to := relPath(aside, rel)
	if err := os.RemoveAll(to); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
		return err
	}
	from := relPath(root, rel)
	err := os.Rename(from, to)
	if !errors.Is(err, syscall.EXDEV) {
		return err
	}
	// The git directory is on another file system (a linked work tree's
	// may be): a file is copied, anything else stays where it is.
	if err := CopyFile(from, to); err != nil {
		return err
	}
	return os.Remove(from)
}

// CopyFile copies the regular file src to dst with its permissions and
// modification time, making dst's directories.
func CopyFile(src, dst string) error {
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

// relPath is the slash-separated relative path p under root.
func relPath(root, p string) string { return filepath.Join(root, filepath.FromSlash(p)) }

// DescribeBack says what who did to the user's ignored files (back, what
// stood in their place kept under aside): in the user's work tree, where
// planx put its copy back, or (own) in a wave task's own copy of them
// (Own), where the user's were never touched.
func DescribeBack(back []Back, who, aside string, own bool) (msgs []string) {
	var deleted, over []string
	yours := map[string][]string{}
	for _, b := range back {
		switch {
		case b.Aside == "":
			deleted = append(deleted, b.Path)
		case b.Aside == b.Path:
			over = append(over, b.Path)
		default:
			if len(yours[b.Aside]) == 0 {
				over = append(over, b.Aside)
			}
			yours[b.Aside] = append(yours[b.Aside], b.Path)
		}
	}
	where, fixed := "", "; planx put them back from its copy: "
	if own {
		where, fixed = " in its own copy of them (a wave task's work tree gets one)", "; yours were not touched: "
	}
	if len(deleted) > 0 {
		msgs = append(msgs, fmt.Sprintf("%s deleted %d ignored file(s) that no commit holds%s%s%s",
			who, len(deleted), where, fixed, textsafe.List(deleted)))
	}
	if len(over) == 0 {
		return msgs
	}
	slices.Sort(over)
	named := make([]string, len(over))
	for i, p := range over {
		named[i] = p
		if ps := yours[p]; len(ps) > 0 {
			named[i] += " (yours: " + textsafe.List(ps) + ")"
		}
	}
	theirs := "the task's"
	if who != "the task" {
		theirs = "the version found"
	}
	kept := "planx put back yours from its copy and kept"
	if own {
		kept = "yours were not touched, and planx kept"
	}
	return append(msgs, fmt.Sprintf("%s overwrote %d ignored path(s) that no commit holds%s; %s %s in %s: %s",
		who, len(over), where, kept, theirs, aside, strings.Join(named, ", ")))
}
