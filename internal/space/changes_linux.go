package space

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Changes is what the program changed in the work tree, .git excluded. It
// reads the work tree's upper layer, and of the real tree only the paths
// found there (and the contents of a directory the program removed or
// replaced): its cost is that of the change, not of the tree.
func (s *Space) Changes() (ChangeSet, error) {
	return diff(s.treeUpper(), s.root, func(rel string) bool { return !inGit(rel) })
}

// GitChanges is what the program changed in the work tree's .git (paths
// start with ".git/"): the commits it made, its index, hooks, config.
func (s *Space) GitChanges() (ChangeSet, error) {
	return diff(s.treeUpper(), s.root, inGit)
}

// Outside lists what the program wrote outside the work tree: the
// non-directories in every upper layer but the work tree's, and what it
// wrote in the plain directories of its root (/ and those that hold mount
// points), sorted by path. In a layer, files merely opened for writing and
// left as they were are listed too.
func (s *Space) Outside() ([]Write, error) {
	if s.treeOnly {
		return nil, nil // written through: nothing to list
	}
	layers, err := os.ReadDir(s.layersDir())
	if err != nil {
		return nil, err
	}
	var out []Write
	for _, l := range layers {
		dir, err := url.PathUnescape(l.Name())
		if err != nil {
			continue
		}
		upper := filepath.Join(s.layersDir(), l.Name(), "u")
		err = filepath.WalkDir(upper, func(p string, d fs.DirEntry, err error) error {
			if err != nil && p != upper {
				return nil // a directory the program made unreadable: left out
			}
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(upper, p)
			fi, err := d.Info()
			if err != nil {
				return err
			}
			out = append(out, Write{Path: filepath.Join("/", dir, rel), Deleted: whiteout(p, fi)})
			return nil
		})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("space: read the layer of %s: %w", "/"+dir, err)
		}
	}
	sk, err := skeletonWrites(s.skeleton(), filepath.Join(s.dir, "skeleton.json"))
	if err != nil {
		return nil, err
	}
	out = append(out, sk...)
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// skeletonWrites lists what the program wrote in the skeleton, the plain
// directories of its root (/, and those that hold mount points): what the
// helper did not make there (skeleton.json), and the copied files and
// links it changed or removed.
func skeletonWrites(skel, manifest string) ([]Write, error) {
	data, err := os.ReadFile(manifest)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil // nothing ran
	}
	if err != nil {
		return nil, err
	}
	made := map[string]string{}
	if err := json.Unmarshal(data, &made); err != nil {
		return nil, fmt.Errorf("space: %s: %w", manifest, err)
	}
	var out []Write
	err = filepath.WalkDir(skel, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == skel {
			return err
		}
		inside := "/" + filepath.ToSlash(strings.TrimPrefix(p, skel+"/"))
		switch made[inside] {
		case kindMount:
			if d.IsDir() {
				return fs.SkipDir
			}
		case kindDir:
		case kindCopy, kindLink:
			ui, err := os.Lstat(p)
			li, lerr := os.Lstat(inside)
			if err != nil || lerr != nil || !same(p, ui, inside, li) {
				out = append(out, Write{Path: inside})
			}
		default:
			if !d.IsDir() {
				out = append(out, Write{Path: inside})
			}
		}
		return nil
	})
	for inside, kind := range made {
		if kind == kindCopy || kind == kindLink {
			if _, err := os.Lstat(filepath.Join(skel, inside)); errors.Is(err, fs.ErrNotExist) {
				out = append(out, Write{Path: inside, Deleted: true})
			}
		}
	}
	return out, err
}

// diff compares the upper layer with the lower tree for the paths keep
// accepts (at the top of the layer).
func diff(upper, lower string, keep func(rel string) bool) (ChangeSet, error) {
	d := differ{upper: upper, lower: lower, written: map[string]bool{}, deleted: map[string]bool{}}
	if err := d.walk("", keep); err != nil {
		return ChangeSet{}, fmt.Errorf("space: read the work tree's layer: %w", err)
	}
	var cs ChangeSet
	for p := range d.written {
		cs.Written = append(cs.Written, p)
	}
	for p := range d.deleted {
		if !d.written[p] {
			cs.Deleted = append(cs.Deleted, p)
		}
	}
	cs.gone = d.gone
	sort.Strings(cs.Written)
	sort.Strings(cs.Deleted)
	return cs, nil
}

type differ struct {
	upper, lower     string
	written, deleted map[string]bool
	gone             []string
}

func (d *differ) walk(rel string, keep func(string) bool) error {
	entries, err := os.ReadDir(filepath.Join(d.upper, filepath.FromSlash(rel)))
	if err != nil {
		return err
	}
	for _, e := range entries {
		r := path.Join(rel, e.Name())
		if !keep(r) {
			continue
		}
		up := filepath.Join(d.upper, filepath.FromSlash(r))
		low := filepath.Join(d.lower, filepath.FromSlash(r))
		ui, err := os.Lstat(up)
		if err != nil {
			return err
		}
		li, lerr := os.Lstat(low)
		if lerr != nil && !errors.Is(lerr, fs.ErrNotExist) && !errors.Is(lerr, unix.ENOTDIR) {
			return lerr
		}
		inLower := lerr == nil
		switch {
		case whiteout(up, ui):
			if inLower {
				d.gone = append(d.gone, r)
				if err := d.deleteLower(r, li); err != nil {
					return err
				}
			}
		case ui.IsDir():
			if inLower && !li.IsDir() {
				// a file replaced by a directory
				d.gone = append(d.gone, r)
				d.deleted[r] = true
			} else if inLower && opaque(up) {
				// removed and made again: what the lower held and the
				// upper does not is gone
				if err := d.deleteHidden(r); err != nil {
					return err
				}
			}
			if err := d.walk(r, keep); err != nil {
				return err
			}
		default:
			if inLower && li.IsDir() {
				// a directory replaced by a file
				d.gone = append(d.gone, r)
				if err := d.deleteLower(r, li); err != nil {
					return err
				}
			} else if inLower && same(up, ui, low, li) {
				continue // copied up, left as it was
			}
			d.written[r] = true
		}
	}
	return nil
}

// deleteLower marks r, and if it is a directory every file beneath it in
// the lower tree, deleted.
func (d *differ) deleteLower(r string, li fs.FileInfo) error {
	if !li.IsDir() {
		d.deleted[r] = true
		return nil
	}
	root := filepath.Join(d.lower, filepath.FromSlash(r))
	return filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() {
			rel, _ := filepath.Rel(d.lower, p)
			d.deleted[filepath.ToSlash(rel)] = true
		}
		return nil
	})
}

// deleteHidden marks deleted the files beneath r, an opaque directory,
// that the lower tree has and the upper does not have as files.
func (d *differ) deleteHidden(r string) error {
	root := filepath.Join(d.lower, filepath.FromSlash(r))
	return filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(d.lower, p)
		if ui, err := os.Lstat(filepath.Join(d.upper, rel)); err != nil || ui.IsDir() || whiteout(filepath.Join(d.upper, rel), ui) {
			d.deleted[filepath.ToSlash(rel)] = true
		}
		return nil
	})
}

// whiteout reports whether p, in an upper layer, marks a removed file: a
// character device 0/0, or (as a lower layer of a nested overlay writes
// them) a file with the whiteout attribute.
func whiteout(p string, fi fs.FileInfo) bool {
	if fi.Mode()&fs.ModeCharDevice != 0 {
		st, ok := fi.Sys().(*syscall.Stat_t)
		return ok && st.Rdev == 0
	}
	if fi.Mode().IsRegular() && fi.Size() == 0 {
		return hasXattr(p, "user.overlay.whiteout") || hasXattr(p, "trusted.overlay.whiteout")
	}
	return false
}

// opaque reports whether the directory p hides the lower directory of the
// same name (it was removed and made again).
func opaque(p string) bool {
	return xattr(p, "user.overlay.opaque") == "y" || xattr(p, "trusted.overlay.opaque") == "y"
}

func hasXattr(p, name string) bool {
	_, err := unix.Lgetxattr(p, name, nil)
	return err == nil
}

func xattr(p, name string) string {
	var buf [16]byte
	n, err := unix.Lgetxattr(p, name, buf[:])
	if err != nil || n < 0 {
		return ""
	}
	return string(buf[:n])
}

// same reports whether the upper file is the lower one, copied up and left
// as it was: same type, mode and contents.
func same(up string, ui fs.FileInfo, low string, li fs.FileInfo) bool {
	if ui.Mode() != li.Mode() {
		return false
	}
	switch {
	case ui.Mode()&fs.ModeSymlink != 0:
		a, err1 := os.Readlink(up)
		b, err2 := os.Readlink(low)
		return err1 == nil && err2 == nil && a == b
	case ui.Mode().IsRegular():
		return ui.Size() == li.Size() && sameContent(up, low)
	}
	return false
}

func sameContent(a, b string) bool {
	fa, err := os.Open(a)
	if err != nil {
		return false
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return false
	}
	defer fb.Close()
	ba, bb := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		na, ea := io.ReadFull(fa, ba)
		nb, eb := io.ReadFull(fb, bb)
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return false
		}
		if ea != nil || eb != nil {
			return (ea == io.EOF || ea == io.ErrUnexpectedEOF) && (eb == io.EOF || eb == io.ErrUnexpectedEOF)
		}
	}
}

// Apply copies the work tree's change (Changes, not .git) into dst, a tree
// that holds what the work tree held when the space was made (usually the
// work tree itself): removed paths are removed, written files are copied
// byte for byte with their mode, symbolic links as links.
func (s *Space) Apply(dst string) error {
	_, err := s.ApplyHolding(dst, nil)
	return err
}

// ApplyHolding is Apply leaving alone in dst every path held says is
// held (the user's ignored data: an environment directory, a local
// configuration), and every path beneath or above one that is, and
// returns those it left alone. A nil held holds nothing.
func (s *Space) ApplyHolding(dst string, held func(rel string) bool) (kept []string, err error) {
	cs, err := s.Changes()
	if err != nil {
		return nil, err
	}
	hold := func(p string) bool {
		if held == nil {
			return false
		}
		if held(p) {
			kept = append(kept, p)
			return true
		}
		return false
	}
	for _, g := range cs.gone {
		if inGit(g) || hold(g) {
			continue
		}
		if err := RemoveAll(filepath.Join(dst, filepath.FromSlash(g))); err != nil {
			return kept, fmt.Errorf("space: apply: %w", err)
		}
	}
	for _, p := range cs.Deleted {
		if hold(p) {
			continue
		}
		if err := os.Remove(filepath.Join(dst, filepath.FromSlash(p))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return kept, fmt.Errorf("space: apply: %w", err)
		}
	}
	for _, p := range cs.Written {
		if hold(p) {
			continue
		}
		if err := copyOut(s.treeUpper(), p, dst); err != nil {
			return kept, fmt.Errorf("space: apply %s: %w", p, err)
		}
	}
	return kept, nil
}

// copyOut copies p from the upper layer into dst: into a temporary file
// beside it, renamed over it.
func copyOut(upper, p, dst string) error {
	src := filepath.Join(upper, filepath.FromSlash(p))
	to := filepath.Join(dst, filepath.FromSlash(p))
	if err := makeParents(upper, p, dst); err != nil {
		return err
	}
	fi, err := os.Lstat(src)
	if err != nil {
		return err
	}
	if old, err := os.Lstat(to); err == nil && old.IsDir() {
		if err := RemoveAll(to); err != nil {
			return err
		}
	}
	tmp := filepath.Join(filepath.Dir(to), ".planx-space-"+filepath.Base(to))
	_ = os.Remove(tmp)
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(src)
		if err != nil {
			return err
		}
		if err := os.Symlink(target, tmp); err != nil {
			return err
		}
	case fi.Mode().IsRegular():
		if err := copyFile(src, tmp, fi.Mode()); err != nil {
			_ = os.Remove(tmp)
			return err
		}
	default:
		return fmt.Errorf("a %v, not a file or a link", fi.Mode().Type())
	}
	return os.Rename(tmp, to)
}

// makeParents makes the directories above p in dst, with the modes they
// have in the upper layer.
func makeParents(upper, p, dst string) error {
	dir := path.Dir(p)
	if dir == "." {
		return nil
	}
	if fi, err := os.Stat(filepath.Join(dst, filepath.FromSlash(dir))); err == nil && fi.IsDir() {
		return nil
	}
	if err := makeParents(upper, dir, dst); err != nil {
		return err
	}
	mode := fs.FileMode(0o755)
	if fi, err := os.Stat(filepath.Join(upper, filepath.FromSlash(dir))); err == nil {
		mode = fi.Mode().Perm()
	}
	d := filepath.Join(dst, filepath.FromSlash(dir))
	if fi, err := os.Lstat(d); err == nil && !fi.IsDir() {
		if err := os.Remove(d); err != nil {
			return err
		}
	}
	if err := os.Mkdir(d, mode); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return os.Chmod(d, mode)
}

func copyFile(src, dst string, mode fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Chmod(mode.Perm() | mode&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Layer is what the upper layer of the work tree holds, compared with
// nothing: every file written, whether or not the work tree holds the same
// bytes by now (after planx took them out, it does). Deletions are not
// listed: a whiteout is told from a deletion only against the lower layer.
func (s *Space) Layer() (ChangeSet, error) {
	empty, err := os.MkdirTemp("", "planx-space-empty-")
	if err != nil {
		return ChangeSet{}, err
	}
	defer os.Remove(empty)
	return diff(s.treeUpper(), empty, func(rel string) bool { return !inGit(rel) })
}
