package gitops

import (
	"context"
	"fmt"
	"os"
)

// Init creates a repository in dir (created if missing) with branch as its
// initial branch, and opens it.
func Init(ctx context.Context, dir, branch string) (*Repo, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("init %s: %w", dir, err)
	}
	g := runner{dir: dir, env: baseEnv(), retry: defaultLockRetry()}
	if _, err := g.run(ctx, nil, false, "init", "-q", "-b", branch); err != nil {
		return nil, fmt.Errorf("init %s: %w", dir, err)
	}
	return Open(ctx, dir)
}
