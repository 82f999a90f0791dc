package gitops

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Save records the index as it stands (what is staged, not the work
// tree) as a commit whose parent is parent ("" for none). The index itself
// is not changed.
func (ix Index) Save(ctx context.Context, message string, parent SHA) (SHA, error) {
	tree, err := ix.r.write(ctx, nil, "write-tree")
	if err != nil {
		return "", fmt.Errorf("save the index: %w", err)
	}
	args := []string{"commit-tree", strings.TrimSpace(string(tree)), "-F", "-"}
	if parent != "" {
		args = append(args, "-p", string(parent))
	}
	out, err := ix.r.run(ctx, []byte(message), false, args...)
	if err != nil {
		return "", fmt.Errorf("save the index: %w", err)
	}
	return SHA(strings.TrimSpace(string(out))), nil
}

// Load makes the index hold rev's tree, keeping the work tree: what
// Save recorded is staged again, the rest shows as unstaged changes.
func (ix Index) Load(ctx context.Context, rev SHA) error {
	if err := checkArg("object id", string(rev)); err != nil {
		return err
	}
	if _, err := ix.r.write(ctx, nil, "read-tree", string(rev)); err != nil {
		return fmt.Errorf("load the index from %s: %w", rev.Short(), err)
	}
	// read-tree leaves no stat data: refresh it so status is cheap again.
	// Exit 1 only says some files differ from the index, which is the point.
	_, err := ix.r.write(ctx, nil, "update-index", "-q", "--refresh")
	var ge *GitError
	if err != nil && !(errors.As(err, &ge) && ge.ExitCode == 1) {
		return fmt.Errorf("load the index from %s: %w", rev.Short(), err)
	}
	return nil
}

// PutMarks sets what an index holds beyond its tree on it again: the
// assume-unchanged and skip-worktree flags on the entries that are in it,
// and the intent-to-add entries for the files that exist and are not
// tracked. The work tree is not touched.
func (ix Index) PutMarks(ctx context.Context, assumeUnchanged, skipWorktree, intentToAdd []string) error {
	var ita []string
	for _, p := range intentToAdd {
		if _, err := os.Lstat(filepath.Join(ix.r.Root, filepath.FromSlash(p))); err == nil {
			ita = append(ita, p)
		}
	}
	if len(ita) > 0 {
		if _, err := ix.r.write(ctx, nulList(ita), "-c", "core.literalPathspecs=true",
			"add", "--intent-to-add", "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
			return fmt.Errorf("mark %d path(s) intent-to-add: %w", len(ita), err)
		}
	}
	// One flag per command, paths on the command line (see ClearHidden).
	for _, f := range []struct {
		flag  string
		paths []string
	}{{"--assume-unchanged", assumeUnchanged}, {"--skip-worktree", skipWorktree}} {
		if len(f.paths) == 0 {
			continue
		}
		if _, err := ix.r.write(ctx, nil, append([]string{"update-index", f.flag, "--"}, f.paths...)...); err != nil {
			return fmt.Errorf("index flags: %w", err)
		}
	}
	ix.r.clean = nil
	return nil
}
