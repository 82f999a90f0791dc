package gitops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Commits makes the repository's commits: git commit with the user's
// hooks (Commit), the per-task fast path that commits the index with
// commit-tree and moves the branch by compare-and-swap (CommitIndex,
// CommitIndexWith, CommitUnchanged, with CommitRules saying when it may be
// taken and RunHook running the hooks git commit would have), and
// snapshots of the work tree as commits no branch holds (Snapshot).
type Commits struct{ r *Repo }

// Commits returns the repository's commit maker.
func (r *Repo) Commits() Commits { return Commits{r} }

// CommitOptions adjusts Commit.
type CommitOptions struct {
	AllowEmpty bool // record a commit even when the index matches HEAD
	NoVerify   bool // skip the pre-commit and commit-msg hooks (prepare-commit-msg still runs)
	// Started, when set, runs git in a process group of its own and is
	// called with its id once git runs: a caller that may be killed outright
	// records it, so whoever comes next can wait for that commit to land
	// instead of racing it.
	Started func(pgid int)
	// Include stages these paths as part of the commit (git commit
	// --include), sparing a separate git add that rewrites the index.
	Include []string
	// Parent, when set, is the commit HEAD must have been on: git commit
	// moves HEAD from wherever it found it, so a HEAD that moved meanwhile
	// is reported (ErrHeadMoved) once the commit is made.
	Parent SHA
}

// HookError is a commit that a hook refused. Hook is "pre-commit",
// "prepare-commit-msg", "commit-msg", or "" when the failing hook could not be
// told apart. Output is what git and the hook printed (git sends hook stdout
// to stderr).
type HookError struct {
	Hook   string
	Output string
	err    *GitError
}

func (e *HookError) Error() string {
	hook := e.Hook
	if hook == "" {
		hook = "a commit hook"
	} else {
		hook = "the " + hook + " hook"
	}
	if e.Output == "" {
		return "commit rejected by " + hook
	}
	return "commit rejected by " + hook + ":\n" + e.Output
}

// Unwrap gives the underlying *GitError (exit code, args).
func (e *HookError) Unwrap() error { return e.err }

// Commit records the index as a new commit on HEAD and returns its id. It
// works on an unborn branch. Hooks, signing and every commit.* setting apply
// as for a person's git commit.
//
// The message goes in on stdin with --cleanup=whitespace: surrounding blank
// lines and trailing spaces are removed, but lines starting with '#' are kept
// (a plan's markdown headings are not comments) and the trailer block is left
// intact. An explicit mode also overrides a user's commit.cleanup=strip.
func (cm Commits) Commit(ctx context.Context, message string, opts CommitOptions) (SHA, error) {
	r := cm.r
	// git commit would start the repository's automatic maintenance (gc
	// --auto) after any commit once loose objects pile up, and its repack
	// would run beside the tasks that follow: a run leaves it to its end
	// instead (Maintain), as its plumbing commits do.
	args := []string{"-c", "maintenance.auto=false", "-c", "gc.auto=0", "commit", "-q", "--cleanup=whitespace", "-F", "-"}
	if opts.AllowEmpty {
		args = append(args, "--allow-empty")
	}
	if opts.NoVerify {
		args = append(args, "--no-verify")
	}
	if len(opts.Include) > 0 {
		// The paths come after "--" and are literal: a name starting with
		// '-' or ':' is a file name, never an option or pathspec magic.
		for _, p := range opts.Include {
			if p == "" || strings.ContainsAny(p, "\x00\n") {
				return "", fmt.Errorf("invalid path %q", p)
			}
		}
		args = append(append([]string{"-c", "core.literalPathspecs=true"}, args...), "--include", "--")
		args = append(args, opts.Include...)
	}
	before := statMsgFile(r.GitDir)
	g := r.runner
	g.started = opts.Started
	g.env = hookEnv()
	g.hooks = true
	out, err := g.write(ctx, []byte(message), args...)
	if err != nil {
		var ge *GitError
		if !errors.As(err, &ge) || errors.Is(err, ErrLocked) || ctx.Err() != nil {
			return "", err
		}
		if s := string(out); strings.Contains(s, "nothing to commit") || strings.Contains(s, "no changes added to commit") {
			return "", fmt.Errorf("commit: %w", ErrNothingToCommit)
		}
		if he := cm.hookFailure(ctx, ge, out, opts, before); he != nil {
			return "", he
		}
		return "", err
	}
	r.Index().restaged(opts.Include...)
	sha, parents, err := cm.headCommit()
	if err != nil {
		// go-git v5 reads neither SHA-256 repositories nor every object
		// store layout: ask git.
		sha, parents, err = cm.headCommitCLI(ctx)
	}
	if err != nil {
		return "", fmt.Errorf("commit: read the new HEAD: %w", err)
	}
	if opts.Parent != "" && (len(parents) == 0 || parents[0] != opts.Parent) {
		return sha, fmt.Errorf("%w: the commit %s was made on top of %v, not %s: something else committed while git commit ran",
			ErrHeadMoved, sha.Short(), parents, opts.Parent.Short())
	}
	if !cm.hookMayStageAfterTree(opts.NoVerify) {
		// The index holds the commit's tree: git writes the tree from the
		// index after pre-commit (which may stage) has run, and no hook
		// that runs later is installed.
		r.Index().noteCommitted(sha)
	}
	return sha, nil
}

// hookMayStageAfterTree reports whether a hook that runs after git commit
// has written the tree is installed (prepare-commit-msg, commit-msg,
// post-commit; pre-commit runs before): such a hook could leave the index
// different from the commit.
func (cm Commits) hookMayStageAfterTree(noVerify bool) bool {
	for _, h := range (CommitRules{Hooks: cm.commitHooks()}).Running(noVerify) {
		if h != "pre-commit" {
			return true
		}
	}
	return false
}

// msgFileState is what is known of COMMIT_EDITMSG before a commit.
type msgFileState struct {
	exists  bool
	modTime time.Time
	content []byte
}

func statMsgFile(gitDir string) msgFileState {
	p := filepath.Join(gitDir, "COMMIT_EDITMSG")
	fi, err := os.Stat(p)
	if err != nil {
		return msgFileState{}
	}
	content, _ := os.ReadFile(p)
	return msgFileState{exists: true, modTime: fi.ModTime(), content: content}
}

// hookFailure decides whether a failed commit was refused by a hook; nil
// means it was not (or it cannot be told). Git does not say which hook failed,
// so this is inferred: a hook can only be blamed if it is installed and
// executable under the hooks path git uses (core.hooksPath honoured), and
// git writes COMMIT_EDITMSG after pre-commit passes and before
// prepare-commit-msg and commit-msg run, so a rewritten message file
// clears pre-commit.
func (cm Commits) hookFailure(ctx context.Context, ge *GitError, stdout []byte, opts CommitOptions, before msgFileState) *HookError {
	r := cm.r
	if strings.Contains(ge.Stderr, "gpg failed to sign") || strings.Contains(ge.Stderr, "empty commit message") {
		return nil
	}
	hooks, err := r.Config().HooksDir(ctx)
	if err != nil {
		return nil
	}
	installed := func(name string) bool { return hookInstalled(hooks, name) }
	after := statMsgFile(r.GitDir)
	msgWritten := after.exists && (!before.exists || !after.modTime.Equal(before.modTime) || !bytes.Equal(after.content, before.content))

	var suspects []string
	if !msgWritten {
		if !opts.NoVerify && installed("pre-commit") {
			suspects = append(suspects, "pre-commit")
		}
	} else {
		if installed("prepare-commit-msg") {
			suspects = append(suspects, "prepare-commit-msg")
		}
		if !opts.NoVerify && installed("commit-msg") {
			suspects = append(suspects, "commit-msg")
		}
	}
	if len(suspects) == 0 {
		return nil
	}
	he := &HookError{Output: strings.TrimSpace(ge.Stderr + "\n" + strings.TrimSpace(string(stdout))), err: ge}
	if len(suspects) == 1 {
		he.Hook = suspects[0]
	}
	return he
}

// Maintain runs the repository's automatic maintenance once (git
// maintenance run --auto: what git commit runs after a commit, by the
// user's maintenance settings), at the end of a run's commits: a gc it
// starts goes on detached, as after git commit.
func (cm Commits) Maintain(ctx context.Context) error {
	_, err := cm.r.run(ctx, nil, false, "maintenance", "run", "--auto", "--quiet")
	return err
}
