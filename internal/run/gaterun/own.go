package gaterun

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planx-dev/planx/internal/judge"
)

// A wave's tasks run at once, each in its own slot. A link from a slot
// to the user's ignored data (data/, local.env) would let one task's step
// or gate delete or overwrite files the others read, and a put-back in
// the user's work tree after one task would refill a directory another is
// emptying. So a wave task's checkouts get the user's data that the run
// keeps (aside.Copy) as their own copy, taken from that copy:
// whatever a task does to it stays in its slot, and the user's files are
// never written by it. What the task deleted or changed there is said and
// its version kept aside, as the serial path does; what it added (a new
// file in data/) goes to the user's work tree, where the serial path
// would have left it. The files over keep_ignored, which planx holds no
// copy of, and what is not the user's data (build outputs, dependency
// environments) are linked as before: a copy of them would cost what an
// install costs.

// Own is the copy of the user's kept ignored data in one checkout
// (OwnIgnored), until Settle.
type Own struct {
	root, kept, dir string
	entries         []string // the entries copied, relative
	files           []string // the kept files copied, relative, in path order
}

// OwnIgnored gives the checkout dir its own copy of the entries (relative
// to the user's work tree root) that hold files the run kept in kept: the
// kept files are copied from there, the rest of such an entry (a file
// over the limit, a build output) is linked file by file. It returns the
// copy (nil when no entry was copied) and the entries it did not copy,
// which the caller links.
func OwnIgnored(root, kept, dir string, entries []string) (*Own, []string) {
	o := &Own{root: root, kept: kept, dir: dir}
	var rest []string
	for _, e := range entries {
		rel := strings.TrimSuffix(e, "/")
		if !filepath.IsLocal(filepath.FromSlash(rel)) || !exists(relPath(kept, rel)) ||
			!exists(relPath(root, rel)) || exists(relPath(dir, rel)) {
			rest = append(rest, e)
			continue
		}
		o.entries = append(o.entries, rel)
		o.copyEntry(rel)
	}
	if len(o.entries) == 0 {
		return nil, rest
	}
	slices.Sort(o.files)
	return o, rest
}

// copyEntry copies the entry rel into the checkout (see OwnIgnored). A
// file that cannot be copied is linked, as it was before copies.
func (o *Own) copyEntry(rel string) {
	src := relPath(o.root, rel)
	_ = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		r, _ := filepath.Rel(o.root, p)
		r = filepath.ToSlash(r)
		dst := relPath(o.dir, r)
		switch {
		case d.IsDir() && p != src && (d.Name() == ".git" || judge.BuildOutput(r+"/")):
			_ = os.Symlink(p, dst)
			return filepath.SkipDir
		case d.IsDir():
			// The user's permissions (a private data/ stays private),
			// and the owner's own, to fill it and remove it.
			perm := fs.FileMode(0o755)
			if fi, err := d.Info(); err == nil {
				perm = fi.Mode().Perm() | 0o700
			}
			if p == src {
				_ = os.MkdirAll(filepath.Dir(dst), 0o755) // (an entry in an untracked directory)
			}
			if os.Mkdir(dst, perm) != nil {
				_ = os.Symlink(p, dst)
				return filepath.SkipDir
			}
			return nil
		}
		if k, err := os.Lstat(relPath(o.kept, r)); err == nil && k.Mode().IsRegular() && d.Type().IsRegular() &&
			CopyFile(relPath(o.kept, r), dst) == nil {
			o.files = append(o.files, r)
			return nil
		}
		_ = os.Remove(dst) // what a failed copy left
		_ = os.Symlink(p, dst)
		return nil
	})
}

// Settle settles the copy as the task left it, and removes it: a kept
// file the task deleted or changed is said (the task's version moved
// under aside, as PutBack does in the user's work tree); a new file it
// wrote under a copied entry is moved to the user's work tree when
// nothing is at its path there, else kept under aside too. Call it under
// the wave's lock: it writes the user's work tree. It returns what the
// task deleted or changed, in path order, and the new files it moved.
func (o *Own) Settle(aside string) (back []Back, moved []string, err error) {
	for _, rel := range o.files {
		b, changed, perr := putBackOne(o.dir, relPath(o.kept, rel), rel, aside)
		if perr != nil {
			err = errors.Join(err, fmt.Errorf("settle %s: %w", rel, perr))
		}
		if changed {
			back = append(back, b)
		}
	}
	for _, e := range o.entries {
		m, b, merr := o.moveNew(e, aside)
		moved, back = append(moved, m...), append(back, b...)
		err = errors.Join(err, merr)
		if rerr := os.RemoveAll(relPath(o.dir, e)); rerr != nil {
			err = errors.Join(err, fmt.Errorf("remove the copy of %s: %w", e, rerr))
		}
	}
	slices.SortFunc(back, func(a, b Back) int { return strings.Compare(a.Path, b.Path) })
	return back, moved, err
}

// moveNew moves the regular files the task added under the copied entry
// e to the user's work tree, or under aside when something is at that
// path there (said as an overwrite: the user's stays).
func (o *Own) moveNew(e, aside string) (moved []string, back []Back, err error) {
	_ = filepath.WalkDir(relPath(o.dir, e), func(p string, d fs.DirEntry, werr error) error {
		if werr != nil || !d.Type().IsRegular() {
			return nil
		}
		r, _ := filepath.Rel(o.dir, p)
		r = filepath.ToSlash(r)
		if _, found := slices.BinarySearch(o.files, r); found {
			return nil
		}
		to := relPath(o.root, r)
		if blocker, _ := blocking(o.root, r); blocker == "" && !exists(to) {
			if merr := moveTo(p, to); merr == nil {
				moved = append(moved, r)
				return nil
			}
		}
		if merr := moveAside(o.dir, r, aside); merr != nil {
			err = errors.Join(err, fmt.Errorf("keep %s aside: %w", r, merr))
			return nil
		}
		back = append(back, Back{Path: r, Aside: r})
		return nil
	})
	return moved, back, err
}

// moveTo moves the file from to to, making to's directories.
func moveTo(from, to string) error {
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	if err := os.Rename(from, to); err == nil {
		return nil
	}
	if err := CopyFile(from, to); err != nil { // another file system
		return err
	}
	return os.Remove(from)
}

// exists says something is at path p (a dangling link too).
func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// Kept is where a run keeps the user's ignored data, as a wave task's
// checkouts are handed it (taskgate.Keeper.Kept): the user's work tree,
// the run's copy of the files (verify.KeptDir) and the directory under
// which what a task left in their place goes, one directory per task
// (verify.AsideDir).
type Kept struct {
	Root, Dir, Aside string
}

// AsideOf is where task id's versions of the user's files go.
func (k Kept) AsideOf(id string) string { return filepath.Join(k.Aside, id) }
