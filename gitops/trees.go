package gitops

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// TreeOf returns the root tree of commit sha, read in-process (git's own
// rev-parse when go-git cannot read the object store).
func (o Objects) TreeOf(ctx context.Context, sha SHA) (SHA, error) {
	if repo, err := o.inProcess(); err == nil {
		if c, err := object.GetCommit(repo.Storer, plumbing.NewHash(string(sha))); err == nil {
			return SHA(c.TreeHash.String()), nil
		}
	}
	if err := checkArg("revision", string(sha)); err != nil {
		return "", err
	}
	out, err := o.g.run(ctx, nil, true, "rev-parse", "--verify", "-q", "--end-of-options", string(sha)+"^{tree}")
	if err != nil {
		return "", fmt.Errorf("tree of %s: %w", sha.Short(), err)
	}
	return SHA(strings.TrimSpace(string(out))), nil
}

// TreeWithout returns the id git would give tree without the entries at
// paths (repo-relative; absent ones are ignored; a directory left empty goes
// too). It is computed in memory and not stored: it is a key naming "this tree but for these files", such as the
// work of a task without the plan planx ticks and the log planx writes.
func (o Objects) TreeWithout(tree SHA, paths ...string) (SHA, error) {
	repo, err := o.inProcess()
	if err != nil {
		return "", err
	}
	h, _, err := dropPaths(repo.Storer, plumbing.NewHash(string(tree)), paths)
	if err != nil {
		return "", fmt.Errorf("tree %s without %s: %w", tree.Short(), strings.Join(paths, ", "), err)
	}
	return SHA(h.String()), nil
}

// dropPaths returns the id of tree h without paths, and whether nothing is
// left of it (a directory git would then not record at all).
func dropPaths(s storer.EncodedObjectStorer, h plumbing.Hash, paths []string) (plumbing.Hash, bool, error) {
	t, err := object.GetTree(s, h)
	if err != nil {
		return plumbing.ZeroHash, false, err
	}
	here := map[string]bool{}
	below := map[string][]string{}
	for _, p := range paths {
		if dir, rest, ok := strings.Cut(p, "/"); ok {
			below[dir] = append(below[dir], rest)
		} else {
			here[p] = true
		}
	}
	entries := slices.Clone(t.Entries)
	changed := false
	for i := 0; i < len(entries); i++ {
		e := &entries[i]
		if here[e.Name] {
			entries = slices.Delete(entries, i, i+1)
			i--
			changed = true
			continue
		}
		if sub, ok := below[e.Name]; ok && e.Mode == filemode.Dir {
			nh, empty, err := dropPaths(s, e.Hash, sub)
			if err != nil {
				return plumbing.ZeroHash, false, err
			}
			if empty {
				entries = slices.Delete(entries, i, i+1)
				i--
				changed = true
				continue
			}
			changed = changed || nh != e.Hash
			e.Hash = nh
		}
	}
	if !changed {
		return h, len(entries) == 0, nil
	}
	nt := &object.Tree{Entries: entries}
	var obj plumbing.MemoryObject
	if err := nt.Encode(&obj); err != nil {
		return plumbing.ZeroHash, false, err
	}
	return obj.Hash(), len(entries) == 0, nil
}
