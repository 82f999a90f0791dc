package gitops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// KeepFiles records the work tree's files paths (slash paths relative to
// the root: regular files; others are skipped) as a commit of their bytes
// as they are, no filter applied, and their modes, and points ref at it.
// Neither the user's index nor any file is touched: a scratch index takes
// the entries. Files git ignores have no other record (no commit, no
// stash): this is what RestoreMissing brings back.
func (r *Repo) KeepFiles(ctx context.Context, ref, message string, paths []string) (SHA, error) {
	var names, modes []string
	var stdin bytes.Buffer
	for _, p := range paths {
		fi, err := os.Lstat(filepath.Join(r.Root, filepath.FromSlash(p)))
		if err != nil || !fi.Mode().IsRegular() || strings.ContainsAny(p, "\n\x00") {
			continue
		}
		mode := "100644"
		if fi.Mode()&0o111 != 0 {
			mode = "100755"
		}
		names, modes = append(names, p), append(modes, mode)
		stdin.WriteString(p + "\n")
	}
	if len(names) == 0 {
		return "", nil
	}
	out, err := r.run(ctx, stdin.Bytes(), false, "hash-object", "-w", "--no-filters", "--stdin-paths")
	if err != nil {
		return "", fmt.Errorf("keep ignored files: %w", err)
	}
	shas := strings.Fields(string(out))
	if len(shas) != len(names) {
		return "", fmt.Errorf("keep ignored files: git hashed %d of %d files", len(shas), len(names))
	}
	var info bytes.Buffer
	for i, p := range names {
		fmt.Fprintf(&info, "%s blob %s\t%s\x00", modes[i], shas[i], p)
	}
	empty, err := r.emptyTree(ctx)
	if err != nil {
		return "", fmt.Errorf("keep ignored files: %w", err)
	}
	g, done, err := r.Objects().scratchIndex(ctx, empty)
	if err != nil {
		return "", fmt.Errorf("keep ignored files: %w", err)
	}
	defer done()
	if _, err := g.run(ctx, info.Bytes(), false, "update-index", "-z", "--add", "--index-info"); err != nil {
		return "", fmt.Errorf("keep ignored files: %w", err)
	}
	tree, err := g.run(ctx, nil, false, "write-tree")
	if err != nil {
		return "", fmt.Errorf("keep ignored files: %w", err)
	}
	c, err := g.run(ctx, []byte(message), false, "commit-tree", strings.TrimSpace(string(tree)), "-F", "-")
	if err != nil {
		return "", fmt.Errorf("keep ignored files: %w", err)
	}
	sha := SHA(strings.TrimSpace(string(c)))
	if err := r.Refs().Update(ctx, ref, sha, "", message); err != nil {
		return "", err
	}
	return sha, nil
}

// RestoreMissing writes back, from the commit rev that KeepFiles made,
// each file the work tree no longer has (nothing at its path, and no file
// where one of its directories was), with its mode. Files that exist, in
// whatever state, are left alone. It returns the paths written.
func (r *Repo) RestoreMissing(ctx context.Context, rev SHA) ([]string, error) {
	out, err := r.run(ctx, nil, true, "ls-tree", "-r", "-z", string(rev))
	if err != nil {
		return nil, fmt.Errorf("restore ignored files: %w", err)
	}
	var restored []string
	for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		meta, p, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || f[1] != "blob" {
			continue
		}
		dst := filepath.Join(r.Root, filepath.FromSlash(p))
		if _, err := os.Lstat(dst); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		b, err := r.Objects().CatBlob(ctx, SHA(f[2]))
		if err != nil {
			return restored, err
		}
		perm := os.FileMode(0o644)
		if f[0] == "100755" {
			perm = 0o755
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			continue // a file where its directory was: the task's, left alone
		}
		if err := os.WriteFile(dst, b, perm); err != nil {
			return restored, fmt.Errorf("restore ignored files: %w", err)
		}
		restored = append(restored, p)
	}
	return restored, nil
}
