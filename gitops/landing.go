package gitops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// Landing moves the current branch and, with it, the index and work tree
// to a descendant commit, and takes back such a move that a stop cut.
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
	_, _ = r.write(ctx, nil, "update-index", "-q", "--refresh")
	if _, err := r.write(ctx, nil, "read-tree", "-m", "-u", string(old), string(new)); err != nil {
		return fmt.Errorf("%w: update the work tree from %s to %s: %v", ErrRepoState, old.Short(), new.Short(), err)
	}
	return nil
}

// InTheWay lists the paths a Tree(old, new) would write (those where the
// two commits differ) that hold something of the person's: an index entry
// that is not old's (staged), or a work tree file that does not hold old's
// bytes (edited, deleted, or an untracked file where old has none). git
// read-tree refuses to move over any of them; this names them first, so
// that the caller can say which and what to do.
func (l Landing) InTheWay(ctx context.Context, old, new SHA) ([]string, error) {
	r := l.r
	diff, err := l.treeDiff(ctx, old, new)
	if err != nil || len(diff) == 0 {
		return nil, err
	}
	if err := r.Index().Sync(ctx); err != nil {
		return nil, err
	}
	index, err := l.indexEntries(ctx)
	if err != nil {
		return nil, err
	}
	held, err := l.holds(ctx, diff, 0)
	if err != nil {
		return nil, err
	}
	var way []string
	for p, d := range diff {
		staged := index[p] != d[0] && !(d[0].absent() && index[p].absent())
		if staged || !held[p] {
			way = append(way, p)
		}
	}
	sort.Strings(way)
	return way, nil
}

// treeEntry is a path's mode and object in a tree or the index; the zero
// value is "no such path".
type treeEntry struct{ mode, sha string }

func (e treeEntry) absent() bool { return e.sha == "" || strings.Trim(e.sha, "0") == "" }

// Retract takes back what a cut Tree(old, new) wrote (a
// landing stopped after git read-tree started and before the branch
// moved): of the paths where HEAD and new differ, the index entries that
// are new's go back to HEAD's, and the work tree files whose bytes are
// new's are put back as HEAD has them (removed where HEAD has none). A
// path holding anything else (a person's edit, or what a person
// committed) is left as it is. Afterwards the index and work tree are as
// if the advance had never begun, relative to wherever HEAD is now, and
// the advance can be made again. It returns the paths it put back.
func (l Landing) Retract(ctx context.Context, new SHA) ([]string, error) {
	r := l.r
	if err := checkArg("commit", string(new)); err != nil {
		return nil, err
	}
	// A write first: it waits for the index lock of a git read-tree that
	// outlived the planx that started it, which must end before its
	// work is judged. (Exit 1 only means some file is changed.)
	if _, err := r.write(ctx, nil, "update-index", "-q", "--refresh"); errors.Is(err, ErrLocked) {
		return nil, err
	}
	head, err := r.Refs().Resolve(ctx, "HEAD")
	if err != nil || head == "" || head == new {
		return nil, err
	}
	diff, err := l.treeDiff(ctx, head, new)
	if err != nil || len(diff) == 0 {
		return nil, err
	}
	if err := r.Index().Sync(ctx); err != nil {
		return nil, err
	}
	r.clean, r.stale = nil, nil
	index, err := l.indexEntries(ctx)
	if err != nil {
		return nil, err
	}
	written, err := l.holds(ctx, diff, 1)
	if err != nil {
		return nil, err
	}
	var staged, inHead, created []string
	for p, d := range diff {
		if index[p] == d[1] || (d[1].absent() && index[p].absent()) {
			staged = append(staged, p)
		}
		if !written[p] {
			continue
		}
		if d[0].absent() {
			created = append(created, p)
		} else {
			inHead = append(inHead, p)
		}
	}
	if len(staged) > 0 {
		if _, err := r.write(ctx, nulList(staged), "-c", "core.literalPathspecs=true",
			"reset", "-q", string(head), "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
			return nil, fmt.Errorf("put back the index of %d path(s): %w", len(staged), err)
		}
	}
	if len(inHead) > 0 {
		if _, err := r.write(ctx, nulList(inHead), "-c", "core.literalPathspecs=true",
			"restore", "-q", "--source="+string(head), "--worktree", "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
			return nil, fmt.Errorf("put back %d file(s) from %s: %w", len(inHead), head.Short(), err)
		}
	}
	if err := r.removeFiles(created); err != nil {
		return nil, err
	}
	_, _ = r.write(ctx, nil, "update-index", "-q", "--refresh")
	back := append(inHead, created...)
	sort.Strings(back)
	return back, nil
}

// treeDiff maps each path where commits a and b differ to its entries in
// a and b.
func (l Landing) treeDiff(ctx context.Context, a, b SHA) (map[string][2]treeEntry, error) {
	out, err := l.r.run(ctx, nil, true, "diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", string(a), string(b))
	if err != nil {
		return nil, fmt.Errorf("compare %s with %s: %w", a.Short(), b.Short(), err)
	}
	diff := map[string][2]treeEntry{}
	fields := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		// ":oldmode newmode oldsha newsha status", then the path.
		f := strings.Fields(strings.TrimPrefix(fields[i], ":"))
		if len(f) < 4 {
			return nil, fmt.Errorf("compare %s with %s: unexpected line %q", a.Short(), b.Short(), fields[i])
		}
		diff[fields[i+1]] = [2]treeEntry{{f[0], f[2]}, {f[1], f[3]}}
	}
	return diff, nil
}

// indexEntries lists the index's stage-0 entries.
func (l Landing) indexEntries(ctx context.Context) (map[string]treeEntry, error) {
	out, err := l.r.run(ctx, nil, true, "ls-files", "-s", "-z")
	if err != nil {
		return nil, fmt.Errorf("list the index: %w", err)
	}
	entries := map[string]treeEntry{}
	for _, rec := range strings.Split(string(out), "\x00") {
		meta, path, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if ok && len(f) == 3 && f[2] == "0" {
			entries[path] = treeEntry{f[0], f[1]}
		}
	}
	return entries, nil
}

// holds reports, for each path of diff, whether the work tree holds what
// the first (side 0) or the second (side 1) commit has there: its bytes
// with its kind of file, or nothing where it has none. Something else in
// the way of the path (a file where the commit has a directory) is not.
func (l Landing) holds(ctx context.Context, diff map[string][2]treeEntry, side int) (map[string]bool, error) {
	got := map[string]bool{}
	var files []string
	for p, d := range diff {
		fi, err := os.Lstat(filepath.Join(l.r.Root, filepath.FromSlash(p)))
		want := d[side]
		switch {
		case errors.Is(err, fs.ErrNotExist):
			got[p] = want.absent()
		case errors.Is(err, syscall.ENOTDIR):
			got[p] = false
		case err != nil:
			return nil, fmt.Errorf("look at %s: %w", p, err)
		case want.mode == "120000" && fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(filepath.Join(l.r.Root, filepath.FromSlash(p)))
			if err != nil {
				return nil, fmt.Errorf("look at %s: %w", p, err)
			}
			out, err := l.r.run(ctx, []byte(target), true, "hash-object", "--no-filters", "--stdin")
			got[p] = err == nil && strings.TrimSpace(string(out)) == want.sha
		case fi.Mode().IsRegular() && (want.mode == "100755") == (fi.Mode()&0o111 != 0) &&
			(want.mode == "100644" || want.mode == "100755") && !strings.Contains(p, "\n"):
			files = append(files, p)
		}
	}
	if len(files) == 0 {
		return got, nil
	}
	// One git for every regular file, hashed as git add would (filters).
	out, err := l.r.run(ctx, []byte(strings.Join(files, "\n")+"\n"), true, "hash-object", "--stdin-paths")
	if err != nil {
		return nil, fmt.Errorf("hash %d file(s): %w", len(files), err)
	}
	sums := bytes.Fields(out)
	if len(sums) != len(files) {
		return nil, fmt.Errorf("hash %d file(s): git gave %d hashes", len(files), len(sums))
	}
	for i, p := range files {
		got[p] = string(sums[i]) == diff[p][side].sha
	}
	return got, nil
}
