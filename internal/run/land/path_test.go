package land

import (
	"context"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
)

// How the run commits, decided from the repository: git commit when a
// hook applies or the index is small, plumbing otherwise; a malformed
// PLANX_SMALL_INDEX names itself.
func TestChooseCommitPath(t *testing.T) {
	gittest.Setenv(t)
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	gittest.Commit(t, dir, "one")
	repo, err := gitops.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	choose := func(small string, noVerify bool) CommitPath {
		t.Helper()
		t.Setenv(smallIndexEnv, small)
		p, err := ChooseCommitPath(ctx, repo, noVerify)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if p := choose("", false); !p.Porcelain || p.Hooks || p.PostCommit || p.Sign {
		t.Errorf("a small index without hooks: %+v, want git commit and nothing else", p)
	}
	if p := choose("0", false); p.Porcelain {
		t.Errorf("an index over the limit without hooks: %+v, want plumbing", p)
	}
	gittest.WriteFileMode(t, dir, ".git/hooks/pre-commit", "#!/bin/sh\nexit 0\n", 0o755)
	gittest.WriteFileMode(t, dir, ".git/hooks/post-commit", "#!/bin/sh\nexit 0\n", 0o755)
	if p := choose("0", false); !p.Porcelain || !p.Hooks || !p.PostCommit {
		t.Errorf("a pre-commit hook over the limit: %+v, want git commit with its hooks", p)
	}
	if p := choose("0", false); !p.RollbackPorcelain {
		t.Errorf("the rollback commit with a post-commit hook: %+v, want git commit (hooks other than pre-commit apply)", p)
	}
	t.Setenv(smallIndexEnv, "big")
	if _, err := ChooseCommitPath(ctx, repo, false); err == nil || !strings.Contains(err.Error(), smallIndexEnv) {
		t.Errorf("a malformed %s: %v", smallIndexEnv, err)
	}
}
