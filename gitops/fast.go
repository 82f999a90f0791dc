package gitops

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// This file is the per-task fast path: one work-tree scan per task (git add
// -A), every other question answered from the index, the object store or,
// in-process, from the refs.

// HeadNow reads HEAD in-process with go-git: no child process, which matters
// when it is asked once per task. A test checks it agrees with Head.
func (r *Repo) HeadNow() (Head, error) {
	repo, err := git.PlainOpenWithOptions(r.Root, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
	if err != nil {
		return Head{}, fmt.Errorf("read HEAD: %w", err)
	}
	sym, err := repo.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return Head{}, fmt.Errorf("read HEAD: %w", err)
	}
	var h Head
	if sym.Type() == plumbing.SymbolicReference {
		h.Ref = sym.Target().String()
		h.Branch = strings.TrimPrefix(h.Ref, "refs/heads/")
	} else {
		h.Detached = true
	}
	ref, err := repo.Reference(plumbing.HEAD, true)
	switch {
	case errors.Is(err, plumbing.ErrReferenceNotFound):
		h.Unborn = true
	case err != nil:
		return Head{}, fmt.Errorf("read HEAD: %w", err)
	default:
		h.SHA = SHA(ref.Hash().String())
	}
	return h, nil
}

// StagedChanges lists what the index holds beyond the commit base, without
// scanning the work tree: Index is 'A' (added), 'M', 'D' or 'T'.
func (r *Repo) StagedChanges(ctx context.Context, base SHA) ([]Change, error) {
	out, err := r.run(ctx, nil, true, "diff-index", "--cached", "--name-status", "--no-renames", "-z", string(base), "--")
	if err != nil {
		return nil, err
	}
	fields := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	var cs []Change
	for i := 0; i+1 < len(fields); i += 2 {
		cs = append(cs, Change{Index: fields[i][0], Work: '.', Path: fields[i+1]})
	}
	return cs, nil
}

// CommitIndex commits the index as a child of parent and moves ref to it if
// ref still points at parent (compare-and-swap: a moved branch fails with
// ErrHeadMoved). It is git commit without the second work-tree scan, and
// without hooks or signing: callers use Commit when CommitNeedsPorcelain.
// parent "" makes a root commit on an unborn ref. The ref's reflog (and
// HEAD's, when HEAD points at ref) records it as "commit: <subject>". The
// refs in create are created at the new commit in the same transaction.
func (r *Repo) CommitIndex(ctx context.Context, message string, parent SHA, ref string, create ...string) (SHA, error) {
	tree, err := r.write(ctx, nil, "write-tree")
	if err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	args := []string{"commit-tree", strings.TrimSpace(string(tree)), "-F", "-"}
	old := ZeroSHA
	if parent != "" {
		args = append(args, "-p", string(parent))
		old = parent
	}
	out, err := r.run(ctx, []byte(cleanMessage(message)), false, args...)
	if err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	sha := SHA(strings.TrimSpace(string(out)))
	subject, _, _ := strings.Cut(message, "\n")
	reason := "commit: " + subject
	if parent == "" {
		reason = "commit (initial): " + subject
	}
	if len(create) == 0 {
		if err := r.UpdateRef(ctx, ref, sha, old, reason); err != nil {
			return sha, err
		}
		r.noteCommitted(sha)
		return sha, nil
	}
	for _, c := range append([]string{ref}, create...) {
		if err := checkArg("ref", c); err != nil {
			return "", err
		}
	}
	// One update-ref transaction: all refs move, or none.
	stdin := fmt.Sprintf("update %s %s %s\n", ref, sha, old)
	for _, c := range create {
		stdin += fmt.Sprintf("create %s %s\n", c, sha)
	}
	_, err = r.write(ctx, []byte(stdin), "update-ref", "-m", reason, "--stdin")
	var ge *GitError
	if err != nil && !errors.Is(err, ErrLocked) && errors.As(err, &ge) && isCASLoss(ge.Stderr) {
		return "", fmt.Errorf("%w: %s is no longer at %s: %s", ErrHeadMoved, ref, old.Short(), ge.Stderr)
	}
	if err != nil {
		return sha, err
	}
	r.noteCommitted(sha)
	return sha, nil
}

// cleanMessage does what git commit --cleanup=whitespace does, so both
// commit paths record the same bytes.
func cleanMessage(m string) string {
	lines := strings.Split(strings.ReplaceAll(m, "\r\n", "\n"), "\n")
	var out []string
	blank := false
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n") + "\n"
}

// CommitNeedsPorcelain reports whether commits in this repository must go
// through git commit: a commit hook would run (pre-commit, prepare-commit-msg,
// commit-msg, post-commit, in the hooks directory git uses), or commits are
// to be signed.
func (r *Repo) CommitNeedsPorcelain(ctx context.Context) (bool, string, error) {
	dir := r.hooks
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(r.Root, dir)
	}
	for _, h := range []string{"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit"} {
		if fi, err := os.Stat(filepath.Join(dir, h)); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return true, "hook " + h, nil
		}
	}
	sign, err := r.run(ctx, nil, true, "config", "--type=bool", "--default=false", "commit.gpgSign")
	if err != nil {
		return false, "", err
	}
	if strings.TrimSpace(string(sign)) == "true" {
		return true, "commit.gpgSign", nil
	}
	return false, "", nil
}

// ModifiedTracked lists tracked files whose work-tree content differs from
// the index: what a commit hook rewrote after staging. It stats tracked files
// only, cheaper than a status that also walks for untracked files.
func (r *Repo) ModifiedTracked(ctx context.Context) ([]string, error) {
	out, err := r.run(ctx, nil, true, "diff-files", "--name-only", "-z")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	return paths, nil
}
