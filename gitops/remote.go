package gitops

import (
	"bytes"
	"context"
	"fmt"
	"strings"
)

// Remote is a remote of the repository, by name or URL, that refs are
// pushed to and fetched from.
type Remote struct {
	g    *runner
	name string
}

// Remote is the remote name (or URL) of r.
func (r *Repo) Remote(name string) Remote { return Remote{&r.runner, name} }

// Push pushes refspecs, forced per refspec when it says so ("+src:dst"),
// atomically: all of them move or none does. Hooks do not run.
func (rm Remote) Push(ctx context.Context, refspecs ...string) error {
	if err := checkArg("remote", rm.name); err != nil {
		return err
	}
	args := append([]string{"push", "--quiet", "--atomic", "--no-verify", rm.name}, refspecs...)
	if _, err := rm.g.write(ctx, nil, args...); err != nil {
		return fmt.Errorf("push to %s: %w", rm.name, err)
	}
	return nil
}

// Fetch fetches refspecs; a refspec whose source the remote lacks fails
// the fetch unless it is a glob.
func (rm Remote) Fetch(ctx context.Context, refspecs ...string) error {
	if err := checkArg("remote", rm.name); err != nil {
		return err
	}
	args := append([]string{"fetch", "--quiet", "--no-tags", "--no-write-fetch-head", rm.name}, refspecs...)
	if _, err := rm.g.write(ctx, nil, args...); err != nil {
		return fmt.Errorf("fetch from %s: %w", rm.name, err)
	}
	return nil
}

// EmptyTree is the id of the empty tree (SHA-1 or SHA-256, as the
// repository's), written to the object store so that a commit may name it.
func (o Objects) EmptyTree(ctx context.Context) (SHA, error) {
	out, err := o.g.run(ctx, []byte{}, false, "hash-object", "-w", "-t", "tree", "--stdin")
	if err != nil {
		return "", fmt.Errorf("the empty tree: %w", err)
	}
	return SHA(strings.TrimSpace(string(out))), nil
}

// EmptyTreeID is the id of the empty tree (SHA-1 or SHA-256, as the
// repository's), not written to the object store: git knows that tree
// without it.
func (o Objects) EmptyTreeID(ctx context.Context) (SHA, error) { return o.g.emptyTree(ctx) }

// Files are the regular files of tree, path to content, each read with
// cat-file: for the small trees planx writes itself (a run's records
// carried between machines), not for a project's tree.
func (o Objects) Files(ctx context.Context, tree SHA) (map[string][]byte, error) {
	if err := checkArg("tree", string(tree)); err != nil {
		return nil, err
	}
	out, err := o.g.run(ctx, nil, true, "ls-tree", "-r", "-z", "--full-tree", string(tree))
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", tree.Short(), err)
	}
	files := map[string][]byte{}
	for _, e := range bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0}) {
		if len(e) == 0 {
			continue
		}
		meta, path, ok := strings.Cut(string(e), "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || f[1] != "blob" {
			continue
		}
		b, err := o.CatBlob(ctx, SHA(f[2]))
		if err != nil {
			return nil, err
		}
		files[path] = b
	}
	return files, nil
}
