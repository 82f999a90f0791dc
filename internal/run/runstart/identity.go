package runstart

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/gitops"
)

// checkIdentity fails, wrapping gitops.ErrRepoState, when git cannot say
// who authors or commits (no user.name or user.email it accepts): found
// before a run changes anything rather than at its rollback commit. It
// asks git var, which applies git commit's own rules and environment.
func checkIdentity(ctx context.Context, repo *gitops.Repo) error {
	for _, v := range []string{"GIT_AUTHOR_IDENT", "GIT_COMMITTER_IDENT"} {
		_, err := repo.Config().Var(ctx, v)
		var ge *gitops.GitError
		if errors.As(err, &ge) && ctx.Err() == nil {
			why := "no identity"
			for _, l := range strings.Split(ge.Stderr, "\n") {
				if l = strings.TrimSpace(l); strings.HasPrefix(l, "fatal:") {
					why = strings.TrimSpace(strings.TrimPrefix(l, "fatal:"))
				}
			}
			return fmt.Errorf("%w: git does not know who you are (%s), and every task is a commit; set it, then run again:\n  git config --global user.name \"Your Name\"\n  git config --global user.email you@example.com\n(omit --global to set it for this repository only)",
				gitops.ErrRepoState, why)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// checkSigning fails, wrapping gitops.ErrRepoState, when the repository
// wants its commits signed (commit.gpgSign) and signing does not work:
// found before a run changes anything rather than at its rollback commit.
// It signs one commit of the empty tree that nothing references.
func checkSigning(ctx context.Context, repo *gitops.Repo) error {
	s, err := repo.Config().Settings(ctx)
	if err != nil || !s.Sign {
		return err // unset or false: nothing is signed
	}
	tree, err := repo.Objects().EmptyTreeID(ctx)
	if err != nil {
		return err
	}
	// Signed as git commit would sign with commit.gpgSign (user.signingKey,
	// gpg.format and gpg.program honoured).
	_, err = repo.Objects().CommitTree(ctx, tree, "planx: signing check\n", "", true)
	var ge *gitops.GitError
	if errors.As(err, &ge) && ctx.Err() == nil {
		why, _, _ := strings.Cut(ge.Stderr, "\n")
		return fmt.Errorf("%w: commit.gpgSign is set but signing a commit fails (%s); fix signing (`git commit --allow-empty -m test` shows the same error) or turn it off for this repository (git config commit.gpgSign false)",
			gitops.ErrRepoState, why)
	}
	return err
}
