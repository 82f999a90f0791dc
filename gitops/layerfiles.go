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
// planx takes them out. What planx does not take out it keeps, the task's
// version as a commit (CommitFiles).

// CommitFiles returns a commit, child of base, whose tree is base's with
// each of written taken from the directory dir (dir/<path>: a regular
// file with its executable bit, or a symbolic link) and each of deleted
// removed, but the paths the repository's rules ignore, which no commit
// takes (as Snapshot): those are returned as left out. Bytes are stored
// as they are (no filters). A temporary index
// does the work: the user's index and work tree are not touched, and the
// commit is reachable only from a ref the caller makes.
func (o Objects) CommitFiles(ctx context.Context, base SHA, dir string, written, deleted []string, message string) (SHA, []string, error) {
	if err := checkArg("commit", string(base)); err != nil {
		return "", nil, err
	}
	g, done, err := o.scratchIndex(ctx, base)
	if err != nil {
		return "", nil, err
	}
	defer done()
	ignored, err := o.ignoredOf(ctx, append(slices.Clone(written), deleted...))
	if err != nil {
		return "", nil, err
	}
	var left []string
	var info bytes.Buffer
	for _, p := range written {
		if ignored[p] {
			left = append(left, p)
			continue
		}
		if strings.ContainsAny(p, "\n\x00") {
			return "", nil, fmt.Errorf("keep %q: unusable path", p)
		}
		src := filepath.Join(dir, filepath.FromSlash(p))
		fi, err := os.Lstat(src)
		if err != nil {
			return "", nil, fmt.Errorf("keep %s: %w", p, err)
		}
		mode, data := "100644", []byte(nil)
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(src)
			if err != nil {
				return "", nil, fmt.Errorf("keep %s: %w", p, err)
			}
			mode, data = "120000", []byte(target)
		default:
			if fi.Mode()&0o111 != 0 {
				mode = "100755"
			}
			if data, err = os.ReadFile(src); err != nil {
				return "", nil, fmt.Errorf("keep %s: %w", p, err)
			}
		}
		sha, err := o.HashObject(ctx, data)
		if err != nil {
			return "", nil, fmt.Errorf("keep %s: %w", p, err)
		}
		fmt.Fprintf(&info, "%s %s\t%s\n", mode, sha, p)
	}
	for _, p := range deleted {
		if ignored[p] {
			left = append(left, p)
			continue
		}
		if strings.ContainsAny(p, "\n\x00") {
			return "", nil, fmt.Errorf("keep the deletion of %q: unusable path", p)
		}
		fmt.Fprintf(&info, "0 %s\t%s\n", strings.Repeat("0", len(base)), p)
	}
	if info.Len() > 0 {
		if _, err := g.run(ctx, info.Bytes(), false, "update-index", "--add", "--remove", "--index-info"); err != nil {
			return "", nil, fmt.Errorf("keep %d path(s): %w", len(written)+len(deleted), err)
		}
	}
	tree, err := g.run(ctx, nil, false, "write-tree")
	if err != nil {
		return "", nil, fmt.Errorf("keep files: write tree: %w", err)
	}
	out, err := g.run(ctx, []byte(message), false, "commit-tree", strings.TrimSpace(string(tree)), "-p", string(base), "-F", "-")
	if err != nil {
		return "", nil, fmt.Errorf("keep files: %w", err)
	}
	return SHA(strings.TrimSpace(string(out))), left, nil
}

// ignoredOf says which of paths the repository's ignore rules ignore.
func (o Objects) ignoredOf(ctx context.Context, paths []string) (map[string]bool, error) {
	ignored := map[string]bool{}
	if len(paths) == 0 {
		return ignored, nil
	}
	out, err := o.g.run(ctx, nulList(paths), true, "check-ignore", "--no-index", "-z", "--stdin")
	var ge *GitError
	if err != nil && !(errors.As(err, &ge) && ge.ExitCode == 1) { // 1: none ignored
		return nil, fmt.Errorf("ignore rules: %w", err)
	}
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			ignored[p] = true
		}
	}
	return ignored, nil
}
