package gitops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// errNotSpliceable means a file cannot be put into the tree by splicing:
// the index has no regular file at that path.
var errNotSpliceable = errors.New("not a regular file in the index")

// CommitIndexWith is CommitIndex with the current work-tree content of
// files (repo-relative, already in the index) in place of what the index
// holds for them, without writing the index again.
//
// In a large repository every process that rewrites the index costs tens of
// milliseconds (git rewrites and checksums all of it); staging two small
// files planx wrote after the task's one git add -A would double that cost.
// Here git hashes the files (git hash-object, so clean filters and eol
// attributes apply as for git add), the trees leading to them are rebuilt
// from the index's tree and stored with git mktree, which also checks the
// result, and the commit is made from that tree. The index keeps the old
// entries of those files: the next staging (Index's StageChanges, StageAll,
// Stage, or Sync) brings them up to date.
func (cm Commits) CommitIndexWith(ctx context.Context, message string, parent SHA, ref string, files []string, tree *TreeJob) (SHA, error) {
	r := cm.r
	if tree == nil {
		tree = cm.StartWriteTree(ctx)
	}
	spliced, err := cm.splice(ctx, tree, files)
	if _, terr := tree.Wait(); terr != nil {
		return "", terr
	}
	if err != nil {
		// An unusual index (a symlink or a submodule at the path, the file
		// not staged at all) or object store (alternates, SHA-256, which
		// go-git v5 does not read): stage the files the ordinary way.
		if err := r.Index().Stage(ctx, files...); err != nil {
			return "", err
		}
		return cm.CommitIndex(ctx, message, parent, ref)
	}
	sha, err := cm.commitTree(ctx, spliced, message, parent, ref)
	if err != nil {
		return sha, err
	}
	r.clean = nil
	if tree.marked {
		// The index holds tree, which differs from the commit's in files
		// only; git add --verbose still reports every other change, and
		// restages files (reported too, whether changed since or not).
		r.clean = &cleanIndex{at: sha, mark: tree.mark}
	}
	r.stale = slices.Clone(files)
	return sha, nil
}

// TreeJob is a git write-tree running in the background.
type TreeJob struct {
	done   chan struct{}
	sha    SHA
	err    error
	mark   indexMark
	marked bool
}

// StartWriteTree starts writing the index as a tree. The index must be
// final; meanwhile the caller may write work-tree files (not stage them):
// planx ticks the plan and writes its log while git writes the tree, which
// in a large repository means rewriting the whole index.
func (cm Commits) StartWriteTree(ctx context.Context) *TreeJob {
	r := cm.r
	j := &TreeJob{done: make(chan struct{})}
	go func() {
		defer close(j.done)
		j.sha, j.err = r.Index().writeTree(ctx)
		if j.err == nil {
			j.mark, j.marked = r.Index().mark()
		}
	}()
	return j
}

// Wait returns the tree's id once git has written it.
func (j *TreeJob) Wait() (SHA, error) {
	<-j.done
	return j.sha, j.err
}

// splice returns the id of tree with files' blobs replaced by the work
// tree's content, storing the new blobs and trees. The files are hashed
// while the tree is still being written.
func (cm Commits) splice(ctx context.Context, job *TreeJob, files []string) (SHA, error) {
	r := cm.r
	var in bytes.Buffer
	for _, f := range files {
		// One path a line, C-quoted when it starts with a double quote.
		if err := checkArg("path", f); err != nil || strings.ContainsAny(f, "\n") || strings.HasPrefix(f, `"`) {
			return "", errNotSpliceable
		}
		in.WriteString(f + "\n")
	}
	out, err := r.run(ctx, in.Bytes(), false, "hash-object", "-w", "--stdin-paths")
	if err != nil {
		return "", err
	}
	ids := strings.Fields(string(out))
	if len(ids) != len(files) {
		return "", fmt.Errorf("git hash-object: %d ids for %d files", len(ids), len(files))
	}
	tree, err := job.Wait()
	if err != nil {
		return "", err
	}
	edits := map[string]plumbing.Hash{}
	for i, f := range files {
		edits[f] = plumbing.NewHash(ids[i])
	}
	repo, err := r.inProcess()
	if err != nil {
		return "", err
	}
	var trees []*object.Tree
	root, err := spliceTree(repo.Storer, plumbing.NewHash(string(tree)), edits, &trees)
	if err != nil {
		return "", err
	}
	// git mktree stores the trees (children first, so each one's entries
	// exist) and computes their ids itself: they must match ours.
	var batch bytes.Buffer
	for _, t := range trees {
		for _, e := range t.Entries {
			fmt.Fprintf(&batch, "%06o %s %s\t%s\x00", uint32(e.Mode), entryType(e.Mode), e.Hash, e.Name)
		}
		batch.WriteByte(0)
	}
	out, err = r.run(ctx, batch.Bytes(), false, "mktree", "-z", "--batch")
	if err != nil {
		return "", err
	}
	got := strings.Fields(string(out))
	if len(got) != len(trees) {
		return "", fmt.Errorf("git mktree: %d trees for %d", len(got), len(trees))
	}
	for i, t := range trees {
		if got[i] != t.Hash.String() {
			return "", fmt.Errorf("git mktree stored tree %s where planx computed %s", got[i], t.Hash)
		}
	}
	return SHA(root.String()), nil
}

// spliceTree rebuilds the tree h with edits (paths relative to it) applied,
// appending every new tree to out, children before parents.
func spliceTree(s storer.EncodedObjectStorer, h plumbing.Hash, edits map[string]plumbing.Hash, out *[]*object.Tree) (plumbing.Hash, error) {
	t, err := object.GetTree(s, h)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	here := map[string]plumbing.Hash{}
	below := map[string]map[string]plumbing.Hash{}
	for p, b := range edits {
		if dir, rest, ok := strings.Cut(p, "/"); ok {
			if below[dir] == nil {
				below[dir] = map[string]plumbing.Hash{}
			}
			below[dir][rest] = b
		} else {
			here[p] = b
		}
	}
	entries := slices.Clone(t.Entries)
	for i := range entries {
		e := &entries[i]
		if b, ok := here[e.Name]; ok {
			if e.Mode != filemode.Regular && e.Mode != filemode.Executable {
				return plumbing.ZeroHash, errNotSpliceable
			}
			e.Hash = b
			delete(here, e.Name)
		}
		if sub, ok := below[e.Name]; ok {
			if e.Mode != filemode.Dir {
				return plumbing.ZeroHash, errNotSpliceable
			}
			if e.Hash, err = spliceTree(s, e.Hash, sub, out); err != nil {
				return plumbing.ZeroHash, err
			}
			delete(below, e.Name)
		}
	}
	if len(here)+len(below) > 0 {
		return plumbing.ZeroHash, errNotSpliceable
	}
	nt := &object.Tree{Entries: entries}
	var obj plumbing.MemoryObject
	if err := nt.Encode(&obj); err != nil {
		return plumbing.ZeroHash, err
	}
	nt.Hash = obj.Hash()
	*out = append(*out, nt)
	return nt.Hash, nil
}

func entryType(m filemode.FileMode) string {
	switch m {
	case filemode.Dir:
		return "tree"
	case filemode.Submodule:
		return "commit"
	}
	return "blob"
}

// Sync brings the index entries CommitIndexWith left behind up to
// HEAD, so that a run that stops before its next staging leaves the index
// as git commit would have.
func (ix Index) Sync(ctx context.Context) error {
	if len(ix.r.stale) == 0 {
		return nil
	}
	if _, err := ix.r.write(ctx, nulList(ix.r.stale), "-c", "core.literalPathspecs=true",
		"reset", "-q", "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
		return fmt.Errorf("update the index: %w", err)
	}
	ix.r.stale = nil
	ix.r.clean = nil
	return nil
}
