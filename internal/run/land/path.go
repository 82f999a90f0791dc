package land

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"

	"github.com/planx-dev/planx/gitops"
)

// smallIndexEnv overrides smallIndex (bytes), for the tests and benchmarks
// that exercise both commit paths on repositories of any size.
const smallIndexEnv = "PLANX_SMALL_INDEX"

// smallIndex is the index size under which task commits go through git
// commit even when nothing requires it. git commit re-scans the work tree,
// which plumbing avoids, but it is one process where plumbing needs four.
// Measured here (bench/README.md, "Which commit path"), whole 5-task runs
// with each path forced: 200 files, git commit ~5% faster; 2,000 files
// (index 177 KB), even; 20,000 files (1.7 MB), plumbing ~17% faster.
// 256 KiB is about 2,500 tracked files.
const smallIndex = 256 << 10

// CommitPath is how the run's commits are made.
type CommitPath struct {
	// Porcelain: task commits go through git commit (--include the plan
	// and the log), because hooks or signing apply or the index is small.
	// Otherwise write-tree + commit-tree + a compare-and-swap update-ref,
	// with the plan and the log spliced into the tree, not staged.
	Porcelain bool
	// RollbackPorcelain: the rollback commit goes through git commit: it
	// skips pre-commit and commit-msg (--no-verify), but other hooks and
	// signing still apply.
	RollbackPorcelain bool
	// Hooks: commit hooks run on task commits; they may rewrite files.
	Hooks bool
	// PostCommit: a post-commit hook is installed, which planx does not
	// run for a parallel wave's commits (see wave.Hooks).
	PostCommit bool
	// Sign: commit.gpgSign is set; the commits made with commit-tree
	// (a parallel wave's) are signed with -S.
	Sign bool
}

// ChooseCommitPath is how the run commits in repo.
func ChooseCommitPath(ctx context.Context, repo *gitops.Repo, noVerify bool) (CommitPath, error) {
	rules, err := repo.Commits().CommitRules(ctx)
	if err != nil {
		return CommitPath{}, err
	}
	var p CommitPath
	p.Porcelain, _ = rules.Porcelain(noVerify)
	p.Hooks = len(rules.Running(noVerify)) > 0
	p.PostCommit = slices.Contains(rules.Hooks, "post-commit")
	p.Sign = rules.Sign
	p.RollbackPorcelain, _ = rules.Porcelain(true)
	limit := int64(smallIndex)
	if v := os.Getenv(smallIndexEnv); v != "" {
		if limit, err = strconv.ParseInt(v, 10, 64); err != nil {
			return p, fmt.Errorf("%s=%q: want a size in bytes", smallIndexEnv, v)
		}
	}
	if repo.Index().Size() < limit {
		p.Porcelain = true
	}
	return p, nil
}
