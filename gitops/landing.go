package gitops

import (
	"bytes"
	"context"
	"fmt"
	"strings"
)

// Landing moves the current branch and, with it, the index and work tree
// to a descendant commit, and reads what judging such a move needs (the
// two commits' differences, the index's entries, the work tree's files'
// ids): which of a person's paths are in a landing's way, and what of a
// cut landing to take back, is the wave's to judge.
type Landing struct{ r *Repo }

// Landing returns the repository's landings.
func (r *Repo) Landing() Landing { return Landing{r} }

// Advance moves the current branch from old to new (a descendant) and brings
// the index and work tree along (Tree, then the branch by
// compare-and-swap: if it left old, ErrHeadMoved).
func (l Landing) Advance(ctx context.Context, old, new SHA, reason string) error {
	if err := l.Tree(ctx, old, new); err != nil {
		return err
	}
	return l.r.Refs().Update(ctx, "HEAD", new, old, reason)
}

// Tree brings the index and work tree from commit old to commit new
// with a two-tree merge (git read-tree -m -u), leaving HEAD where it is:
// only the files that differ between the two commits are written, and a
// local change to one of them stops the move before anything changes.
// The caller then moves the branch (Refs.Update with old as the expected
// value).
func (l Landing) Tree(ctx context.Context, old, new SHA) error {
	r := l.r
	for _, s := range []SHA{old, new} {
		if err := checkArg("commit", string(s)); err != nil {
			return err
		}
	}
	if err := r.Index().Sync(ctx); err != nil {
		return err
	}
	r.clean, r.stale = nil, nil
	// Stat data first: a file rewritten with the same content must not
	// count as a local change. (Exit 1 only means some file is changed.)
	_ = l.Refresh(ctx)
	if _, err := r.write(ctx, nil, "read-tree", "-m", "-u", string(old), string(new)); err != nil {
		return fmt.Errorf("%w: update the work tree from %s to %s: %v", ErrRepoState, old.Short(), new.Short(), err)
	}
	return nil
}

// TreeEntry is a path's mode and object in a tree or the index; the zero
// value is "no such path".
type TreeEntry struct{ Mode, SHA string }

// Absent reports whether the entry is "no such path".
func (e TreeEntry) Absent() bool { return e.SHA == "" || strings.Trim(e.SHA, "0") == "" }

// Settle brings the index entries a splice left behind up to HEAD (Sync)
// and forgets what planx knew of the index: a landing's reads and writes
// of it come next.
func (l Landing) Settle(ctx context.Context) error {
	if err := l.r.Index().Sync(ctx); err != nil {
		return err
	}
	l.r.clean, l.r.stale = nil, nil
	return nil
}

// Refresh updates the index's stat data (git update-index -q --refresh),
// so that a file rewritten with the same content is no change. Exit 1
// only says some file is changed: the error is worth reading for a held
// lock (ErrLocked) alone.
func (l Landing) Refresh(ctx context.Context) error {
	_, err := l.r.write(ctx, nil, "update-index", "-q", "--refresh")
	return err
}

// Diff maps each path where commits a and b differ to its entries in a
// and b.
func (l Landing) Diff(ctx context.Context, a, b SHA) (map[string][2]TreeEntry, error) {
	out, err := l.r.run(ctx, nil, true, "diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", string(a), string(b))
	if err != nil {
		return nil, fmt.Errorf("compare %s with %s: %w", a.Short(), b.Short(), err)
	}
	diff := map[string][2]TreeEntry{}
	fields := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		// ":oldmode newmode oldsha newsha status", then the path.
		f := strings.Fields(strings.TrimPrefix(fields[i], ":"))
		if len(f) < 4 {
			return nil, fmt.Errorf("compare %s with %s: unexpected line %q", a.Short(), b.Short(), fields[i])
		}
		diff[fields[i+1]] = [2]TreeEntry{{f[0], f[2]}, {f[1], f[3]}}
	}
	return diff, nil
}

// IndexEntries lists the index's stage-0 entries.
func (l Landing) IndexEntries(ctx context.Context) (map[string]TreeEntry, error) {
	out, err := l.r.run(ctx, nil, true, "ls-files", "-s", "-z")
	if err != nil {
		return nil, fmt.Errorf("list the index: %w", err)
	}
	entries := map[string]TreeEntry{}
	for _, rec := range strings.Split(string(out), "\x00") {
		meta, path, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if ok && len(f) == 3 && f[2] == "0" {
			entries[path] = TreeEntry{f[0], f[1]}
		}
	}
	return entries, nil
}

// HashFiles returns the ids work-tree files (repo-relative, none holding a
// newline) would have staged, hashed as git add would (filters applied),
// in one git; nothing is stored.
func (l Landing) HashFiles(ctx context.Context, paths []string) ([]SHA, error) {
	out, err := l.r.run(ctx, []byte(strings.Join(paths, "\n")+"\n"), true, "hash-object", "--stdin-paths")
	if err != nil {
		return nil, fmt.Errorf("hash %d file(s): %w", len(paths), err)
	}
	sums := bytes.Fields(out)
	if len(sums) != len(paths) {
		return nil, fmt.Errorf("hash %d file(s): git gave %d hashes", len(paths), len(sums))
	}
	ids := make([]SHA, len(sums))
	for i, s := range sums {
		ids[i] = SHA(s)
	}
	return ids, nil
}

// HashBytes returns the id data would have as a blob, stored as given (no
// filters: a symbolic link's target); nothing is stored.
func (l Landing) HashBytes(ctx context.Context, data []byte) (SHA, error) {
	out, err := l.r.run(ctx, data, true, "hash-object", "--no-filters", "--stdin")
	return SHA(strings.TrimSpace(string(out))), err
}
