package gitops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// MergeTrees merges commit theirs into commit ours without touching any
// work tree or index (git merge-tree --write-tree, git >= 2.38), the merge
// base being the one git finds. It returns the merged tree; on a conflict
// it returns the conflicting paths as well (and the tree, with conflict
// markers, which callers should not commit).
func (o Objects) MergeTrees(ctx context.Context, ours, theirs SHA) (SHA, []string, error) {
	for _, s := range []SHA{ours, theirs} {
		if err := checkArg("commit", string(s)); err != nil {
			return "", nil, err
		}
	}
	out, err := o.g.run(ctx, nil, false, "merge-tree", "--write-tree", "--name-only", "--no-messages", "-z",
		string(ours), string(theirs))
	var ge *GitError
	conflicted := errors.As(err, &ge) && ge.ExitCode == 1
	if err != nil && !conflicted {
		return "", nil, fmt.Errorf("merge %s into %s: %w (planx needs git 2.38 or later for merge-tree --write-tree)", theirs.Short(), ours.Short(), err)
	}
	fields := strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	tree := SHA(fields[0])
	if !conflicted {
		return tree, nil, nil
	}
	seen := map[string]bool{}
	var paths []string
	for _, p := range fields[1:] {
		if p != "" && !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	return tree, paths, nil
}

// CommitTree records tree as a commit with parent (none when "") and
// moves no ref: the commit is staged, to be reached by a later ref update.
// sign signs it as git commit would under commit.gpgSign, which git
// commit-tree ignores (it signs only when given -S).
func (o Objects) CommitTree(ctx context.Context, tree SHA, message string, parent SHA, sign bool) (SHA, error) {
	if err := checkArg("tree", string(tree)); err != nil {
		return "", err
	}
	args := []string{"commit-tree", string(tree), "-F", "-"}
	if sign {
		args = append(args, "-S")
	}
	if parent != "" {
		if err := checkArg("commit", string(parent)); err != nil {
			return "", err
		}
		args = append(args, "-p", string(parent))
	}
	out, err := o.g.run(ctx, []byte(cleanMessage(message)), false, args...)
	if err != nil {
		return "", fmt.Errorf("commit tree %s: %w", tree.Short(), err)
	}
	return SHA(strings.TrimSpace(string(out))), nil
}

// TreeWithFiles returns the id of tree with files (repo-relative path to
// content, regular non-executable files) put in place, through a temporary
// index so that neither the user's index nor work tree is touched.
func (o Objects) TreeWithFiles(ctx context.Context, tree SHA, files map[string][]byte) (SHA, error) {
	if err := checkArg("tree", string(tree)); err != nil {
		return "", err
	}
	g, done, err := o.scratchIndex(ctx, tree)
	if err != nil {
		return "", err
	}
	defer done()
	names := make([]string, 0, len(files))
	for p := range files {
		names = append(names, p)
	}
	sort.Strings(names)
	var info bytes.Buffer
	for _, p := range names {
		if err := checkArg("path", p); err != nil || strings.ContainsAny(p, "\n\x00") {
			return "", fmt.Errorf("put %q in a tree: unusable path", p)
		}
		out, err := o.g.run(ctx, files[p], false, "hash-object", "-w", "--stdin")
		if err != nil {
			return "", fmt.Errorf("store %s: %w", p, err)
		}
		fmt.Fprintf(&info, "100644 %s\t%s\n", strings.TrimSpace(string(out)), p)
	}
	if _, err := g.run(ctx, info.Bytes(), false, "update-index", "--add", "--index-info"); err != nil {
		return "", fmt.Errorf("update temporary index: %w", err)
	}
	out, err := g.run(ctx, nil, false, "write-tree")
	if err != nil {
		return "", fmt.Errorf("write tree: %w", err)
	}
	return SHA(strings.TrimSpace(string(out))), nil
}

// CheckoutClean puts this (linked) work tree at rev, detached, discarding
// local changes and removing every file git does not track, ignored ones
// (build outputs, bytecode caches) included: whatever the last use left
// cannot reach the next. git clean removes a symbolic link as a file, never
// what it points to. Hooks are disabled, as for Worktrees.Add.
func (r *Repo) CheckoutClean(ctx context.Context, rev SHA) error {
	if err := checkArg("revision", string(rev)); err != nil {
		return err
	}
	if _, err := r.write(ctx, nil, "-c", "core.hooksPath="+os.DevNull, "checkout", "--detach", "--force", "--quiet", string(rev)); err != nil {
		return fmt.Errorf("check out %s: %w", rev.Short(), err)
	}
	if _, err := r.write(ctx, nil, "clean", "-ffdxq"); err != nil {
		return fmt.Errorf("clean work tree: %w", err)
	}
	r.clean, r.stale = nil, nil
	return nil
}

// TreeFromBase returns a commit (child of base) whose tree is tree with
// each of paths as base has it: put back where base has the path, removed
// where it does not. A temporary index does the work, so neither the
// user's index nor work tree is touched. The judge uses it to run a task's
// tests as the base wrote them.
func (o Objects) TreeFromBase(ctx context.Context, tree, base SHA, paths []string, message string) (SHA, error) {
	for _, s := range []SHA{tree, base} {
		if err := checkArg("tree", string(s)); err != nil {
			return "", err
		}
	}
	g, done, err := o.scratchIndex(ctx, tree)
	if err != nil {
		return "", err
	}
	defer done()
	// ls-tree prints base's entry for each path it has ("mode type sha\tpath").
	out, err := o.g.run(ctx, nil, false, append([]string{"ls-tree", "-z", "--full-tree", string(base), "--"}, paths...)...)
	if err != nil {
		return "", fmt.Errorf("list %s: %w", base.Short(), err)
	}
	inBase := map[string]string{}
	for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if meta, p, ok := strings.Cut(rec, "\t"); ok {
			f := strings.Fields(meta)
			if len(f) == 3 && f[1] == "blob" {
				inBase[p] = f[0] + " " + f[2]
			}
		}
	}
	var info bytes.Buffer
	for _, p := range paths {
		if strings.ContainsAny(p, "\n\x00") {
			return "", fmt.Errorf("put %q in a tree: unusable path", p)
		}
		if e, ok := inBase[p]; ok {
			fmt.Fprintf(&info, "%s\t%s\n", e, p)
		} else {
			fmt.Fprintf(&info, "0 %s\t%s\n", strings.Repeat("0", len(tree)), p) // mode 0 removes the entry
		}
	}
	if _, err := g.run(ctx, info.Bytes(), false, "update-index", "--index-info"); err != nil {
		return "", fmt.Errorf("update temporary index: %w", err)
	}
	t, err := g.run(ctx, nil, false, "write-tree")
	if err != nil {
		return "", fmt.Errorf("write tree: %w", err)
	}
	c, err := o.g.run(ctx, []byte(message), false, "commit-tree", strings.TrimSpace(string(t)), "-p", string(base), "-F", "-")
	if err != nil {
		return "", fmt.Errorf("record the judge's tree: %w", err)
	}
	return SHA(strings.TrimSpace(string(c))), nil
}

// scratchIndex returns a runner whose git uses a temporary index holding
// tree, and how to remove it: edits to a tree without touching the user's
// index or work tree.
func (o Objects) scratchIndex(ctx context.Context, tree SHA) (*runner, func(), error) {
	if err := os.MkdirAll(o.planxDir, 0o755); err != nil {
		return nil, nil, err
	}
	tmp, err := os.MkdirTemp(o.planxDir, "index-")
	if err != nil {
		return nil, nil, err
	}
	done := func() { _ = os.RemoveAll(tmp) }
	g := *o.g
	g.env = append(append([]string(nil), o.g.env...), "GIT_INDEX_FILE="+filepath.Join(tmp, "index"))
	if _, err := g.run(ctx, nil, false, "read-tree", string(tree)); err != nil {
		done()
		return nil, nil, fmt.Errorf("read tree %s: %w", tree.Short(), err)
	}
	return &g, done, nil
}
