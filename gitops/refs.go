package gitops

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// checkArg refuses values git would read as options; refs and revs come from
// plan files and state on disk, so they are not trusted to be well formed.
func checkArg(what, v string) error {
	if v == "" || strings.HasPrefix(v, "-") || strings.ContainsAny(v, "\x00\n") {
		return fmt.Errorf("invalid %s %q", what, v)
	}
	return nil
}

// Refs reads and moves the repository's refs.
type Refs struct {
	g      *runner
	common string // the common git directory, where List may reuse a listing ("": it asks git)
}

// Refs returns the repository's refs.
func (r *Repo) Refs() Refs { return Refs{g: &r.runner, common: r.CommonDir} }

// refs is Refs for the other types that share the runner.
func (g *runner) refs() Refs { return Refs{g: g} }

// Update points ref at newSHA, recording reason in the reflog. With oldSHA
// != "" it is a compare-and-swap: the update happens only if ref is at oldSHA
// (ZeroSHA: only if ref does not exist), and losing the race is an error
// wrapping ErrHeadMoved. oldSHA == "" updates unconditionally.
func (rs Refs) Update(ctx context.Context, ref string, newSHA, oldSHA SHA, reason string) error {
	if err := checkArg("ref", ref); err != nil {
		return err
	}
	if err := checkArg("object id", string(newSHA)); err != nil {
		return err
	}
	args := []string{"update-ref", "-m", reason, ref, string(newSHA)}
	oldSHA = zeroAs(oldSHA, newSHA)
	if oldSHA != "" {
		if err := checkArg("object id", string(oldSHA)); err != nil {
			return err
		}
		args = append(args, string(oldSHA))
	}
	_, err := rs.g.write(ctx, nil, args...)
	var ge *GitError
	if err != nil && oldSHA != "" && !errors.Is(err, ErrLocked) && errors.As(err, &ge) && isCASLoss(ge.Stderr) {
		return fmt.Errorf("%w: %s is no longer at %s: %s", ErrHeadMoved, ref, oldSHA.Short(), ge.Stderr)
	}
	return err
}

// isCASLoss recognises update-ref's messages for an old value that did not
// match: moved, created, or deleted behind planx's back.
func isCASLoss(stderr string) bool {
	return strings.Contains(stderr, "but expected") ||
		strings.Contains(stderr, "reference already exists") ||
		strings.Contains(stderr, "unable to resolve reference")
}

// Delete removes refs (a no-op for one that does not exist), logging
// nothing: git drops a deleted ref's reflog. Several go in one
// update-ref transaction: one git process, all or none.
func (rs Refs) Delete(ctx context.Context, refs ...string) error {
	var stdin strings.Builder
	for _, ref := range refs {
		if err := checkArg("ref", ref); err != nil {
			return err
		}
		fmt.Fprintf(&stdin, "delete %s\n", ref)
	}
	var err error
	switch len(refs) {
	case 0:
	case 1:
		_, err = rs.g.write(ctx, nil, "update-ref", "-d", refs[0])
	default:
		_, err = rs.g.write(ctx, []byte(stdin.String()), "update-ref", "--stdin")
	}
	return err
}

// Detach points this work tree's HEAD at rev, detached, and touches
// neither its index nor its files: for a work tree checked out clean at a
// commit with rev's tree (a slot wave.Pool prepared), which is then clean
// at rev, at the cost of one ref's update instead of a checkout's walk of
// the tree. What the Repo knows of its index stays true: the tree is the
// same.
func (rs Refs) Detach(ctx context.Context, rev SHA) error {
	if err := checkArg("revision", string(rev)); err != nil {
		return err
	}
	if _, err := rs.g.write(ctx, nil, "update-ref", "--no-deref", "-m", "planx: slot at "+rev.Short(), "HEAD", string(rev)); err != nil {
		return fmt.Errorf("point HEAD at %s: %w", rev.Short(), err)
	}
	return nil
}

// Resolve returns the commit rev names, or ("", nil) when there is none
// (unborn HEAD, missing ref, or a rev that is not a commit).
func (rs Refs) Resolve(ctx context.Context, rev string) (SHA, error) {
	if err := checkArg("revision", rev); err != nil {
		return "", err
	}
	return rs.g.verify(ctx, rev+"^{commit}")
}

// ResolveObject returns the object ref points at, whatever its type (refs
// may point at blobs), or ("", nil) when ref does not exist. Unlike
// Resolve it does not peel to a commit.
func (rs Refs) ResolveObject(ctx context.Context, ref string) (SHA, error) {
	if err := checkArg("ref", ref); err != nil {
		return "", err
	}
	return rs.g.verify(ctx, ref)
}

// verify is `git rev-parse --verify -q spec`: the object id, or ("", nil)
// when spec names nothing.
func (g *runner) verify(ctx context.Context, spec string) (SHA, error) {
	out, err := g.run(ctx, nil, true, "rev-parse", "--verify", "-q", "--end-of-options", spec)
	var ge *GitError
	if errors.As(err, &ge) && ge.ExitCode == 1 {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return SHA(strings.TrimSpace(string(out))), nil
}

// emptyTree asks git for the empty tree's id rather than hard-coding the
// SHA-1 one, so SHA-256 repositories work too. Nothing is written.
func (g *runner) emptyTree(ctx context.Context) (SHA, error) {
	out, err := g.run(ctx, []byte{}, true, "hash-object", "-t", "tree", "--stdin")
	return SHA(strings.TrimSpace(string(out))), err
}

// List lists the refs under prefix (e.g. "refs/planx/runs/") with the
// objects they point at.
func (rs Refs) List(ctx context.Context, prefix string) (map[string]SHA, error) {
	if err := checkArg("ref prefix", prefix); err != nil {
		return nil, err
	}
	// The stamp is taken before git lists: a ref written meanwhile
	// changes the next stamp (refseen.go).
	stamp, stamped := refsStamp(rs.common, prefix, time.Now())
	if stamped {
		if refs, ok := rs.g.seen.reuse(prefix, stamp); ok {
			return refs, nil
		}
	}
	out, err := rs.g.run(ctx, nil, true, "for-each-ref", "--format=%(objectname) %(refname)", prefix)
	if err != nil {
		return nil, err
	}
	refs := map[string]SHA{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if sha, name, ok := strings.Cut(line, " "); ok {
			refs[name] = SHA(sha)
		}
	}
	if stamped {
		rs.g.seen.keep(prefix, stamp, refs)
	}
	return refs, nil
}

// zeroAs turns ZeroSHA into the null id of newSHA's object format: 40 zeros
// name "no ref" in a SHA-1 repository, 64 in a SHA-256 one.
func zeroAs(old, newSHA SHA) SHA {
	if old == ZeroSHA && len(newSHA) != len(ZeroSHA) {
		return SHA(strings.Repeat("0", len(newSHA)))
	}
	return old
}
