package gitops

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Objects reads and writes the object database (blobs, trees, commits)
// without touching the index, the work tree or any ref.
type Objects struct {
	g         *runner
	inProcess func() (*git.Repository, error) // the Repo's go-git handle, opened once
	planxDir  string                          // where a temporary index goes
}

// Objects returns the repository's object database.
func (r *Repo) Objects() Objects {
	return Objects{g: &r.runner, inProcess: r.inProcess, planxDir: r.PlanxDir()}
}

// HashObject stores data as a blob in the object database and returns its
// id. The bytes are stored as given: --no-filters keeps autocrlf and
// clean filters (LFS) away from a record that must hash the same everywhere.
func (o Objects) HashObject(ctx context.Context, data []byte) (SHA, error) {
	if data == nil {
		data = []byte{}
	}
	// Writing a loose object takes no lock git could leave behind, but a
	// concurrent gc may be repacking: plain run, no retry.
	out, err := o.g.run(ctx, data, false, "hash-object", "-w", "--no-filters", "--stdin")
	if err != nil {
		return "", fmt.Errorf("store object: %w", err)
	}
	return SHA(strings.TrimSpace(string(out))), nil
}

// CatBlob returns the content of the blob sha. Anything else (a commit, a
// missing object) is an error.
func (o Objects) CatBlob(ctx context.Context, sha SHA) ([]byte, error) {
	if err := checkArg("object id", string(sha)); err != nil {
		return nil, err
	}
	out, err := o.g.run(ctx, nil, true, "cat-file", "blob", string(sha))
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", sha.Short(), err)
	}
	return out, nil
}

// InTree reports which of paths exist in commit rev (files or directories).
func (o Objects) InTree(ctx context.Context, rev SHA, paths []string) (map[string]bool, error) {
	in := map[string]bool{}
	if len(paths) == 0 || rev == "" {
		return in, nil
	}
	if err := checkArg("revision", string(rev)); err != nil {
		return nil, err
	}
	args := append([]string{"-c", "core.literalPathspecs=true", "ls-tree", "-z", "--name-only", "--full-tree", string(rev), "--"}, paths...)
	out, err := o.g.run(ctx, nil, true, args...)
	if err != nil {
		return nil, fmt.Errorf("list %d path(s) in %s: %w", len(paths), rev.Short(), err)
	}
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			in[p] = true
		}
	}
	return in, nil
}

// TreePaths lists every file (blob, symlink, submodule) of a commit's tree:
// the files git tracks there.
func (o Objects) TreePaths(ctx context.Context, rev SHA) (map[string]bool, error) {
	if err := checkArg("revision", string(rev)); err != nil {
		return nil, err
	}
	out, err := o.g.run(ctx, nil, true, "ls-tree", "-r", "-z", "--name-only", "--full-tree", string(rev))
	if err != nil {
		return nil, err
	}
	paths := map[string]bool{}
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			paths[string(p)] = true
		}
	}
	return paths, nil
}

// Sources returns the files of commit rev whose names end in one of exts,
// read in-process, up to max bytes in all (ok=false past it: the caller
// gives up rather than judge from part of the tree).
func (o Objects) Sources(rev SHA, exts []string, max int64) (files map[string][]byte, ok bool, err error) {
	repo, err := o.inProcess()
	if err != nil {
		return nil, false, err
	}
	c, err := object.GetCommit(repo.Storer, plumbing.NewHash(string(rev)))
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", rev.Short(), err)
	}
	tree, err := c.Tree()
	if err != nil {
		return nil, false, fmt.Errorf("read the tree of %s: %w", rev.Short(), err)
	}
	files = map[string][]byte{}
	var total int64
	walk := tree.Files()
	defer walk.Close()
	for {
		f, err := walk.Next()
		if err == io.EOF {
			return files, true, nil
		}
		if err != nil {
			return nil, false, fmt.Errorf("walk %s: %w", rev.Short(), err)
		}
		if !slices.ContainsFunc(exts, func(e string) bool { return strings.HasSuffix(f.Name, e) }) || !f.Mode.IsFile() {
			continue
		}
		if total += f.Size; total > max {
			return nil, false, nil
		}
		s, err := f.Contents()
		if err != nil {
			return nil, false, fmt.Errorf("read %s: %w", f.Name, err)
		}
		files[f.Name] = []byte(s)
	}
}
