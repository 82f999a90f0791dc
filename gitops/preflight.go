package gitops

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// CheckSigning fails, wrapping ErrRepoState, when the repository wants its
// commits signed (commit.gpgSign) and signing does not work: found before a
// run changes anything rather than at its rollback commit. It signs one
// commit of the empty tree that nothing references.
//
// When CommitRules read commit.gpgSign already (a run reads it to choose
// how to commit), its answer is used: one git process less per run.
func (r *Repo) CheckSigning(ctx context.Context) error {
	if r.signs == nil {
		out, err := r.run(ctx, nil, true, "config", "--bool", "--get", "commit.gpgsign")
		sign := err == nil && strings.TrimSpace(string(out)) == "true"
		r.signs = &sign
	}
	if !*r.signs {
		return nil // unset or false: nothing is signed
	}
	tree, err := r.emptyTree(ctx)
	if err != nil {
		return err
	}
	// -S signs as git commit would with commit.gpgSign (user.signingKey,
	// gpg.format and gpg.program honoured).
	_, err = r.run(ctx, []byte("planx: signing check\n"), false, "commit-tree", "-S", string(tree), "-F", "-")
	var ge *GitError
	if errors.As(err, &ge) && ctx.Err() == nil {
		why, _, _ := strings.Cut(ge.Stderr, "\n")
		return fmt.Errorf("%w: commit.gpgSign is set but signing a commit fails (%s); fix signing (`git commit --allow-empty -m test` shows the same error) or turn it off for this repository (git config commit.gpgSign false)",
			ErrRepoState, why)
	}
	return err
}

// Ignored reports whether git's ignore rules (.gitignore files, info/exclude,
// core.excludesFile) ignore the repo-relative path.
func (r *Repo) Ignored(ctx context.Context, path string) (bool, error) {
	_, err := r.run(ctx, nil, true, "check-ignore", "-q", "--no-index", "--", path)
	var ge *GitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &ge) && ge.ExitCode == 1:
		return false, nil
	}
	return false, err
}

// IgnoredEntries lists the ignored files and directories of the work tree
// that exist now, a wholly ignored directory as one "dir/" entry (so a
// node_modules costs one line, not a walk of its files).
func (r *Repo) IgnoredEntries(ctx context.Context) ([]string, error) {
	out, err := r.run(ctx, nil, true, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory")
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

// Identity reads user.name and user.email as git config --get would (the
// last value of each wins), with one git process for both; "" for unset.
func (r *Repo) Identity(ctx context.Context) (name, email string) {
	out, err := r.run(ctx, nil, true, "config", "-z", "--get-regexp", `^user\.(name|email)$`)
	if err != nil {
		return "", "" // exit 1: neither is set
	}
	for _, rec := range strings.Split(string(out), "\x00") {
		key, value, _ := strings.Cut(rec, "\n")
		switch key {
		case "user.name":
			name = value
		case "user.email":
			email = value
		}
	}
	return name, email
}
