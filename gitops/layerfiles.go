package gitops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A task space over the user's work tree holds the task's writes in a
// layer (a directory with the task's version of each file it wrote) until
// planx takes them out. Two questions need git: which of those paths a
// person changed in the work tree meanwhile (ChangedSince), and how to keep
// the task's version of paths planx does not take out (CommitFiles).

// ChangedSince returns those of paths (repo-relative, slash-separated)
// whose file in the work tree (the repository's, whose objects o are)
// differs from rev's, sorted: present in one and not
// the other, a symbolic link in one and a file in the other, or other
// content (with the path's clean filters, as git add sees it). The index
// and the work tree are only read.
func (o Objects) ChangedSince(ctx context.Context, rev SHA, paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	if err := checkArg("revision", string(rev)); err != nil {
		return nil, err
	}
	inRev, err := o.entries(ctx, rev, paths)
	if err != nil {
		return nil, err
	}
	var changed, files []string
	for _, p := range paths {
		fi, err := os.Lstat(filepath.Join(o.g.dir, filepath.FromSlash(p)))
		was, had := inRev[p]
		switch {
		case errors.Is(err, fs.ErrNotExist) || err == nil && fi.IsDir():
			if had {
				changed = append(changed, p)
			}
		case err != nil:
			return nil, fmt.Errorf("compare %s with %s: %w", p, rev.Short(), err)
		case !had || (fi.Mode()&fs.ModeSymlink != 0) != (was.mode == "120000"):
			changed = append(changed, p)
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(filepath.Join(o.g.dir, filepath.FromSlash(p)))
			if err != nil {
				return nil, err
			}
			out, err := o.g.run(ctx, []byte(target), true, "hash-object", "--no-filters", "--stdin")
			if err != nil {
				return nil, fmt.Errorf("compare %s with %s: %w", p, rev.Short(), err)
			}
			if SHA(strings.TrimSpace(string(out))) != was.sha {
				changed = append(changed, p)
			}
		default:
			files = append(files, p)
		}
	}
	if len(files) == 0 {
		slices.Sort(changed)
		return changed, nil
	}
	out, err := o.g.run(ctx, []byte(strings.Join(files, "\n")+"\n"), true, "hash-object", "--stdin-paths")
	if err != nil {
		return nil, fmt.Errorf("compare %d file(s) with %s: %w", len(files), rev.Short(), err)
	}
	shas := strings.Fields(string(out))
	if len(shas) != len(files) {
		return nil, fmt.Errorf("compare with %s: git hashed %d of %d files", rev.Short(), len(shas), len(files))
	}
	for i, p := range files {
		if SHA(shas[i]) != inRev[p].sha {
			changed = append(changed, p)
		}
	}
	slices.Sort(changed)
	return changed, nil
}

// entry is a file's entry in a tree.
type entry struct {
	mode string
	sha  SHA
}

// entries are rev's entries (blobs and links) for paths.
func (o Objects) entries(ctx context.Context, rev SHA, paths []string) (map[string]entry, error) {
	args := append([]string{"-c", "core.literalPathspecs=true", "ls-tree", "-z", "--full-tree", string(rev), "--"}, paths...)
	out, err := o.g.run(ctx, nil, true, args...)
	if err != nil {
		return nil, fmt.Errorf("list %d path(s) in %s: %w", len(paths), rev.Short(), err)
	}
	in := map[string]entry{}
	for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if meta, p, ok := strings.Cut(rec, "\t"); ok {
			if f := strings.Fields(meta); len(f) == 3 && f[1] == "blob" {
				in[p] = entry{mode: f[0], sha: SHA(f[2])}
			}
		}
	}
	return in, nil
}

// CommitFiles returns a commit, child of base, whose tree is base's with
// each of written taken from the directory dir (dir/<path>: a regular
// file with its executable bit, or a symbolic link) and each of deleted
// removed. Bytes are stored as they are (no filters). A temporary index
// does the work: the user's index and work tree are not touched, and the
// commit is reachable only from a ref the caller makes.
func (o Objects) CommitFiles(ctx context.Context, base SHA, dir string, written, deleted []string, message string) (SHA, error) {
	if err := checkArg("commit", string(base)); err != nil {
		return "", err
	}
	g, done, err := o.scratchIndex(ctx, base)
	if err != nil {
		return "", err
	}
	defer done()
	var info bytes.Buffer
	for _, p := range written {
		if strings.ContainsAny(p, "\n\x00") {
			return "", fmt.Errorf("keep %q: unusable path", p)
		}
		src := filepath.Join(dir, filepath.FromSlash(p))
		fi, err := os.Lstat(src)
		if err != nil {
			return "", fmt.Errorf("keep %s: %w", p, err)
		}
		mode, data := "100644", []byte(nil)
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(src)
			if err != nil {
				return "", fmt.Errorf("keep %s: %w", p, err)
			}
			mode, data = "120000", []byte(target)
		default:
			if fi.Mode()&0o111 != 0 {
				mode = "100755"
			}
			if data, err = os.ReadFile(src); err != nil {
				return "", fmt.Errorf("keep %s: %w", p, err)
			}
		}
		sha, err := o.HashObject(ctx, data)
		if err != nil {
			return "", fmt.Errorf("keep %s: %w", p, err)
		}
		fmt.Fprintf(&info, "%s %s\t%s\n", mode, sha, p)
	}
	for _, p := range deleted {
		if strings.ContainsAny(p, "\n\x00") {
			return "", fmt.Errorf("keep the deletion of %q: unusable path", p)
		}
		fmt.Fprintf(&info, "0 %s\t%s\n", strings.Repeat("0", len(base)), p)
	}
	if info.Len() > 0 {
		if _, err := g.run(ctx, info.Bytes(), false, "update-index", "--add", "--remove", "--index-info"); err != nil {
			return "", fmt.Errorf("keep %d path(s): %w", len(written)+len(deleted), err)
		}
	}
	tree, err := g.run(ctx, nil, false, "write-tree")
	if err != nil {
		return "", fmt.Errorf("keep files: write tree: %w", err)
	}
	out, err := g.run(ctx, []byte(message), false, "commit-tree", strings.TrimSpace(string(tree)), "-p", string(base), "-F", "-")
	if err != nil {
		return "", fmt.Errorf("keep files: %w", err)
	}
	return SHA(strings.TrimSpace(string(out))), nil
}
