package gitops

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// This file is the per-task fast path: one work-tree scan per task (git add
// -A), every other question answered from the index, the object store or,
// in-process, from the refs.

// inProcess returns the go-git handle for in-process reads, opened once:
// opening reads the config and probes the layout, which is worth doing once
// per planx process rather than at each of several reads per task. Refs and
// loose objects are read from disk at every call; objects are immutable.
func (r *Repo) inProcess() (*git.Repository, error) {
	if r.gogit == nil {
		repo, err := git.PlainOpenWithOptions(r.Root, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
		if err != nil {
			return nil, err
		}
		r.gogit = repo
	}
	return r.gogit, nil
}

// HeadNow reads HEAD in-process with go-git: no child process, which matters
// when it is asked once per task. A test checks it agrees with Head.
func (r *Repo) HeadNow() (Head, error) {
	repo, err := r.inProcess()
	if err != nil {
		// go-git v5 opens neither SHA-256 repositories nor ones with
		// extensions it does not know (worktreeConfig...): ask git.
		return r.Head(context.Background())
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

// headCommit reads HEAD's commit id and its parents in-process.
func (cm Commits) headCommit() (SHA, []SHA, error) {
	r := cm.r
	repo, err := r.inProcess()
	if err != nil {
		return "", nil, err
	}
	ref, err := repo.Reference(plumbing.HEAD, true)
	if err != nil {
		return "", nil, err
	}
	c, err := repo.CommitObject(ref.Hash())
	if err != nil {
		return "", nil, err
	}
	parents := make([]SHA, len(c.ParentHashes))
	for i, p := range c.ParentHashes {
		parents[i] = SHA(p.String())
	}
	return SHA(ref.Hash().String()), parents, nil
}

func (cm Commits) headCommitCLI(ctx context.Context) (SHA, []SHA, error) {
	r := cm.r
	out, err := r.run(ctx, nil, true, "rev-list", "--parents", "-n", "1", "HEAD", "--")
	if err != nil {
		return "", nil, err
	}
	f := strings.Fields(string(out))
	if len(f) == 0 {
		return "", nil, errors.New("HEAD does not resolve after a successful git commit")
	}
	parents := make([]SHA, len(f)-1)
	for i, p := range f[1:] {
		parents[i] = SHA(p)
	}
	return SHA(f[0]), parents, nil
}

// StagedChanges lists what the index holds beyond the commit base, without
// scanning the work tree: Index is 'A' (added), 'M', 'D' or 'T'.
func (ix Index) StagedChanges(ctx context.Context, base SHA) ([]Change, error) {
	out, err := ix.r.run(ctx, nil, true, "diff-index", "--cached", "--name-status", "--no-renames", "-z", string(base), "--")
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
// without hooks or signing: callers use Commit when CommitRules say so.
// parent "" makes a root commit on an unborn ref. The ref's reflog (and
// HEAD's, when HEAD points at ref) records it as "commit: <subject>". The
// refs in create are created at the new commit in the same transaction.
func (cm Commits) CommitIndex(ctx context.Context, message string, parent SHA, ref string, create ...string) (SHA, error) {
	r := cm.r
	r.stale = nil
	tree, err := r.Index().writeTree(ctx)
	if err != nil {
		return "", err
	}
	return cm.commitIndexTree(ctx, tree, message, parent, ref, create...)
}

// commitIndexTree commits tree, which the index holds, and notes that the
// index is clean at the new commit.
func (cm Commits) commitIndexTree(ctx context.Context, tree SHA, message string, parent SHA, ref string, create ...string) (SHA, error) {
	r := cm.r
	sha, err := cm.commitTree(ctx, tree, message, parent, ref, create...)
	if err != nil {
		return sha, err
	}
	r.Index().noteCommitted(sha)
	return sha, nil
}

func (ix Index) writeTree(ctx context.Context) (SHA, error) {
	out, err := ix.r.write(ctx, nil, "write-tree")
	if err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	return SHA(strings.TrimSpace(string(out))), nil
}

// commitTree records tree as a commit and moves ref (compare-and-swap) and
// creates the refs in create, in one transaction.
func (cm Commits) commitTree(ctx context.Context, tree SHA, message string, parent SHA, ref string, create ...string) (SHA, error) {
	r := cm.r
	args := []string{"commit-tree", string(tree), "-F", "-"}
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
	old = zeroAs(old, sha)
	subject, _, _ := strings.Cut(message, "\n")
	reason := "commit: " + subject
	if parent == "" {
		reason = "commit (initial): " + subject
	}
	if len(create) == 0 {
		return sha, r.Refs().Update(ctx, ref, sha, old, reason)
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
	return sha, err
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

// CommitRules is what makes a commit in this repository more than an
// object and a ref update: hooks that run and signing.
type CommitRules struct {
	Hooks []string // installed and executable, of pre-commit, prepare-commit-msg, commit-msg, post-commit
	Sign  bool     // commit.gpgSign
}

// Porcelain reports whether a commit must go through git commit for its
// hooks to run and its signature to be made; noVerify is git commit's
// --no-verify.
func (c CommitRules) Porcelain(noVerify bool) (bool, string) {
	if c.Sign {
		return true, "commit.gpgSign"
	}
	if run := c.Running(noVerify); len(run) > 0 {
		return true, "hook " + run[0]
	}
	return false, ""
}

// Running lists the installed hooks a commit runs: --no-verify skips
// pre-commit and commit-msg, not prepare-commit-msg or post-commit.
func (c CommitRules) Running(noVerify bool) []string {
	var run []string
	for _, h := range c.Hooks {
		if !noVerify || (h != "pre-commit" && h != "commit-msg") {
			run = append(run, h)
		}
	}
	return run
}

// CommitRules reads which commit hooks are installed, in the hooks
// directory git uses, and whether commits are to be signed.
func (cm Commits) CommitRules(ctx context.Context) (CommitRules, error) {
	r := cm.r
	c := CommitRules{Hooks: cm.commitHooks()}
	s, err := r.Config().Settings(ctx)
	c.Sign = s.Sign
	return c, err
}

func (cm Commits) commitHooks() []string {
	r := cm.r
	var hooks []string
	for _, h := range []string{"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit"} {
		if hookInstalled(absIn(r.Root, r.hooks), h) {
			hooks = append(hooks, h)
		}
	}
	return hooks
}

// Size is the size in bytes of the index file (0 when there is none):
// about 60 bytes plus the path per tracked file.
func (ix Index) Size() int64 {
	fi, err := os.Stat(ix.path())
	if err != nil {
		return 0
	}
	return fi.Size()
}

// ModifiedTracked lists tracked files whose work-tree content differs from
// the index: what a commit hook rewrote after staging. It stats tracked files
// only, cheaper than a status that also walks for untracked files; given
// paths, only those (literally, not as patterns).
func (ix Index) ModifiedTracked(ctx context.Context, paths ...string) ([]string, error) {
	args := []string{"-c", "core.literalPathspecs=true", "diff-files", "--name-only", "-z"}
	// Past a few thousand names the command line could grow beyond the
	// system's limit (ARG_MAX); the whole index is checked then.
	if len(paths) > 0 && len(paths) <= 2000 {
		args = append(append(args, "--"), paths...)
	}
	out, err := ix.r.run(ctx, nil, true, args...)
	if err != nil {
		return nil, err
	}
	var left []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			left = append(left, p)
		}
	}
	return left, nil
}

// CommitUnchanged commits parent's own tree again as a child of parent,
// moving ref and creating the refs in create as CommitIndex does, without
// reading the index: for a caller that knows the index holds parent's tree
// (git status listed no change), write-tree would only say so again.
func (cm Commits) CommitUnchanged(ctx context.Context, message string, parent SHA, ref string, create ...string) (SHA, error) {
	r := cm.r
	tree, err := r.Objects().TreeOf(ctx, parent)
	if err != nil {
		return "", err
	}
	return cm.commitIndexTree(ctx, tree, message, parent, ref, create...)
}
