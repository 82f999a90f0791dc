package gitops

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// Snapshot records the whole work tree (tracked and untracked, ignore rules
// honoured) as a commit whose parent is parent, without touching the real
// index, HEAD or any file: a temporary index takes the staging. The commit is
// reachable only from refs the caller makes.
func (r *Repo) Snapshot(ctx context.Context, message string, parent SHA) (SHA, error) {
	f, err := os.CreateTemp(r.GitDir, "planx-index-*")
	if err != nil {
		return "", fmt.Errorf("snapshot: %w", err)
	}
	tmpIndex := f.Name()
	_ = f.Close()
	_ = os.Remove(tmpIndex) // git wants to create it; an empty file is a corrupt index
	defer os.Remove(tmpIndex)
	g := r.runner
	g.env = append(append([]string(nil), r.env...), "GIT_INDEX_FILE="+tmpIndex)
	// A copy of the real index carries its stat data, so add -A hashes only
	// what changed (read-tree would leave every file to hash: seconds in a
	// large tree, at a stop that must be quick). Without one, the parent's
	// tree is the start.
	if b, err := os.ReadFile(r.Index().path()); err == nil && os.WriteFile(tmpIndex, b, 0o644) == nil {
		// copied
	} else if parent != "" {
		if _, err := g.run(ctx, nil, false, "read-tree", string(parent)); err != nil {
			return "", fmt.Errorf("snapshot: %w", err)
		}
	}
	if _, err := g.run(ctx, nil, false, "add", "-A"); err != nil {
		return "", fmt.Errorf("snapshot: %w", err)
	}
	tree, err := g.run(ctx, nil, false, "write-tree")
	if err != nil {
		return "", fmt.Errorf("snapshot: %w", err)
	}
	args := []string{"commit-tree", strings.TrimSpace(string(tree)), "-F", "-"}
	if parent != "" {
		args = append(args, "-p", string(parent))
	}
	out, err := g.run(ctx, []byte(message), false, args...)
	if err != nil {
		return "", fmt.Errorf("snapshot: %w", err)
	}
	return SHA(strings.TrimSpace(string(out))), nil
}

// ResetHard moves the current branch to rev and makes index and work tree
// match it. Untracked files are left alone (git reset never removes them).
func (r *Repo) ResetHard(ctx context.Context, rev SHA) error {
	if _, err := r.write(ctx, nil, "reset", "-q", "--hard", string(rev)); err != nil {
		return fmt.Errorf("reset --hard %s: %w", rev.Short(), err)
	}
	return nil
}

// ResetMixed moves the current branch to rev and resets the index, keeping
// the work tree: what differs shows as uncommitted changes.
func (r *Repo) ResetMixed(ctx context.Context, rev SHA) error {
	if _, err := r.write(ctx, nil, "reset", "-q", "--mixed", string(rev)); err != nil {
		return fmt.Errorf("reset --mixed %s: %w", rev.Short(), err)
	}
	return nil
}

// Unborn makes branch unborn again (as before its first commit) and empties
// the index, keeping the work tree: every file shows as untracked.
func (r *Repo) Unborn(ctx context.Context, branch string) error {
	if _, err := r.write(ctx, nil, "update-ref", "-d", "refs/heads/"+branch); err != nil {
		return fmt.Errorf("unborn %s: %w", branch, err)
	}
	if _, err := r.write(ctx, nil, "read-tree", "--empty"); err != nil {
		return fmt.Errorf("unborn %s: empty the index: %w", branch, err)
	}
	return nil
}

// ResetSoft moves the current branch to rev keeping index and work tree:
// the changes of the commits above rev become staged changes.
func (r *Repo) ResetSoft(ctx context.Context, rev SHA) error {
	if _, err := r.write(ctx, nil, "reset", "-q", "--soft", string(rev)); err != nil {
		return fmt.Errorf("reset --soft %s: %w", rev.Short(), err)
	}
	return nil
}
