package gitops

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A task space (a copy-on-write view of the machine) keeps what an
// executor wrote in the git directory apart from the repository: its own
// HEAD, refs and objects. planx reads from there where the executor's
// commits ended (Layer.Head) and takes their objects into the repository
// (AdoptObjects) to fold them into the task's commit; nothing else the
// executor wrote there (config, hooks, the index) reaches the repository.

// Overlay maps a path of the repository's git directory to where a space
// keeps its version of that file, when the space wrote one.
type Overlay func(p string) (string, bool)

// read reads p as the space left it: its version when it wrote one, else
// the repository's own.
func (ov Overlay) read(p string) ([]byte, error) {
	if q, ok := ov(p); ok {
		if b, err := os.ReadFile(q); err == nil {
			return b, nil
		}
	}
	return os.ReadFile(p)
}

// Layer is the repository's git directory as a task space left it: the
// space's versions of its files (ov) over the repository's own.
type Layer struct {
	r  *Repo
	ov Overlay
}

// LayerOf is r's git directory as seen through ov.
func LayerOf(r *Repo, ov Overlay) Layer { return Layer{r: r, ov: ov} }

// Head is the commit HEAD names as the space left the git directory
// (its own HEAD, loose refs and packed-refs over the repository's).
func (l Layer) Head() (SHA, error) {
	r, ov := l.r, l.ov
	b, err := ov.read(filepath.Join(r.GitDir, "HEAD"))
	if err != nil {
		return "", fmt.Errorf("HEAD in the task's space: %w", err)
	}
	head := strings.TrimSpace(string(b))
	ref, symbolic := strings.CutPrefix(head, "ref: ")
	if !symbolic {
		return shaOf(head)
	}
	if b, err := ov.read(filepath.Join(r.CommonDir, filepath.FromSlash(ref))); err == nil {
		return shaOf(strings.TrimSpace(string(b)))
	}
	packed, err := ov.read(filepath.Join(r.CommonDir, "packed-refs"))
	if err != nil {
		return "", fmt.Errorf("%s in the task's space: no such ref", ref)
	}
	sc := bufio.NewScanner(bytes.NewReader(packed))
	for sc.Scan() {
		if sha, name, ok := strings.Cut(sc.Text(), " "); ok && name == ref {
			return shaOf(sha)
		}
	}
	return "", fmt.Errorf("%s in the task's space: no such ref", ref)
}

func shaOf(s string) (SHA, error) {
	if (len(s) != 40 && len(s) != 64) || strings.Trim(s, "0123456789abcdef") != "" {
		return "", fmt.Errorf("not a commit id: %q", s)
	}
	return SHA(s), nil
}

// AdoptObjects copies into the repository's object database the loose
// objects and packs of the space's version of it that the repository does
// not have, and returns how many files it copied. Objects are named by
// their content: a copy adds, it never changes one.
func (l Layer) AdoptObjects() (int, error) {
	real := filepath.Join(l.r.CommonDir, "objects")
	ov := l.ov
	src, ok := ov(real)
	if !ok {
		return 0, nil
	}
	n := 0
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() || !d.Type().IsRegular() || !objectFile(filepath.ToSlash(rel)) {
			return nil
		}
		dst := filepath.Join(real, rel)
		if _, err := os.Lstat(dst); err == nil {
			return nil
		}
		if err := copyObject(p, dst); err != nil {
			return err
		}
		n++
		return nil
	})
	return n, err
}

// objectFile says rel (in an objects directory) is a loose object or a
// pack's file: what git reads objects from.
func objectFile(rel string) bool {
	dir, name, ok := strings.Cut(rel, "/")
	switch {
	case !ok:
		return false
	case dir == "pack":
		return strings.HasPrefix(name, "pack-") && (strings.HasSuffix(name, ".pack") || strings.HasSuffix(name, ".idx"))
	}
	return len(dir) == 2 && len(name) >= 38 && !strings.Contains(name, "/") && strings.Trim(dir+name, "0123456789abcdef") == ""
}

// copyObject writes src to dst by a temporary file and a rename, so git
// never reads half an object.
func copyObject(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".planx-adopt-*")
	if err != nil {
		return err
	}
	_, err = io.Copy(tmp, in)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o444)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), dst)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
	}
	return err
}
