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
func (cm Commits) Snapshot(ctx context.Context, message string, parent SHA) (SHA, error) {
	return cm.snapshot(ctx, message, parent, false)
}

// SnapshotAll is Snapshot that also sees through the assume-unchanged flag:
// a file so marked is recorded as the work tree has it, not as the index
// says (git add skips it, so Snapshot keeps the index's version). With
// paths, only those are taken from the work tree; the rest of the tree is
// the index's. The real index and its flags are not touched.
func (cm Commits) SnapshotAll(ctx context.Context, message string, parent SHA, paths ...string) (SHA, error) {
	return cm.snapshot(ctx, message, parent, true, paths...)
}

func (cm Commits) snapshot(ctx context.Context, message string, parent SHA, unhide bool, paths ...string) (SHA, error) {
	r := cm.r
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
	if copyIndex(r.Index().path(), tmpIndex) == nil {
		// copied
	} else if parent != "" {
		if _, err := g.run(ctx, nil, false, "read-tree", string(parent)); err != nil {
			return "", fmt.Errorf("snapshot: %w", err)
		}
	}
	if unhide {
		if err := unhideIn(ctx, &g, tmpIndex); err != nil {
			return "", fmt.Errorf("snapshot: %w", err)
		}
	}
	add := []string{"add", "-A"}
	var stdin []byte
	if len(paths) > 0 {
		add = []string{"-c", "core.literalPathspecs=true", "add", "-A", "--pathspec-from-file=-", "--pathspec-file-nul"}
		stdin = nulList(paths)
	}
	if _, err := g.run(ctx, stdin, false, add...); err != nil {
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

// unhideIn takes the assume-unchanged flag off every entry of the index
// file at path (a scratch copy that g works on), so that git add sees the
// work-tree bytes of those files.
func unhideIn(ctx context.Context, g *runner, path string) error {
	hidden, err := hiddenInIndex(path)
	if err != nil {
		// A layout the reader does not know: ask git, on the scratch index.
		out, gerr := g.run(ctx, nil, true, "ls-files", "-v", "-z")
		if gerr != nil {
			return gerr
		}
		hidden = parseLsFilesV(out)
	}
	var au []string
	for _, h := range hidden {
		if p, ok := strings.CutSuffix(h, " (assume-unchanged)"); ok {
			au = append(au, p)
		}
	}
	if len(au) == 0 {
		return nil
	}
	_, err = g.run(ctx, nil, false, append([]string{"update-index", "--no-assume-unchanged", "--"}, au...)...)
	return err
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

// copyIndex copies the index at src to dst with src's modification time.
// Git trusts an entry's stat data only when the file is older than the
// index that recorded it; an entry written in the index's own instant is
// "racily clean" and its content is compared. A copy with a newer time
// would make such an entry trusted: a file changed in that instant to
// bytes of the same size would be left out of the snapshot.
func copyIndex(src, dst string) error {
	st, err := os.Stat(src)
	if err != nil {
		return err
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		return err
	}
	return os.Chtimes(dst, st.ModTime(), st.ModTime())
}
