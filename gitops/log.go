package gitops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"
)

// Commit is one commit read back from history.
type Commit struct {
	SHA     SHA
	Tree    SHA // the commit's root tree
	Parents []SHA
	Subject string    // the message's first line
	Body    string    // the rest of the message, leading blank lines and final newline removed
	Message string    // the whole message as stored, trailers included
	Time    time.Time // committer time, in the committer's zone
	Author  string    // "Name <email>"
}

// logFields is the number of NUL-separated fields logFormat prints per commit.
const (
	logFormat = "--format=%H%x00%T%x00%P%x00%cI%x00%an <%ae>%x00%B"
	logFields = 6
)

// History reads commits and the relations between them; it changes
// nothing.
type History struct{ g *runner }

// History returns the repository's history.
func (r *Repo) History() History { return History{&r.runner} }

// Log walks first parents from `from`, newest first, stopping before stopAt
// ("" walks to the root) and after max commits (0: no limit). stopAt need not
// be on the path: the walk excludes everything reachable from it, as
// `git log from ^stopAt` does.
//
// It runs git log rather than go-git so history is read the way the rest of
// planx writes it (replace refs, grafts and the user's git version included).
func (h History) Log(ctx context.Context, from SHA, stopAt SHA, max int) ([]Commit, error) {
	var not []string
	if stopAt != "" {
		if err := checkArg("revision", string(stopAt)); err != nil {
			return nil, err
		}
		not = append(not, "^"+string(stopAt))
	}
	return h.log(ctx, from, max, nil, not)
}

// Unpushed is Log without the commits any remote-tracking ref reaches
// (git log from --not --remotes): what a push of a new branch would send,
// as far as this clone knows the remotes.
func (h History) Unpushed(ctx context.Context, from SHA) ([]Commit, error) {
	// The pseudo-options go before --end-of-options; the second --not
	// turns from back into an inclusion.
	return h.log(ctx, from, 0, []string{"--not", "--remotes", "--not"}, nil)
}

// HasRemoteRefs reports whether any remote-tracking ref exists.
func (h History) HasRemoteRefs(ctx context.Context) (bool, error) {
	refs, err := h.g.refs().List(ctx, "refs/remotes/")
	return len(refs) > 0, err
}

// Upstream returns the upstream of the current branch ("" when there is
// none, HEAD is detached, or the upstream ref is not fetched here), by its
// short name and commit.
func (h History) Upstream(ctx context.Context) (name string, sha SHA, err error) {
	out, err := h.g.run(ctx, nil, true, "rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}")
	if err != nil {
		var ge *GitError
		if errors.As(err, &ge) {
			return "", "", nil // no upstream configured: git's answer, not a failure
		}
		return "", "", err
	}
	name = strings.TrimSpace(string(out))
	if sha, err = h.g.refs().Resolve(ctx, "@{upstream}"); err != nil || sha == "" {
		return "", "", err
	}
	return name, sha, nil
}

// log runs git log from `from`; pre are options before --end-of-options,
// post revisions after it.
func (h History) log(ctx context.Context, from SHA, max int, pre, post []string) ([]Commit, error) {
	if err := checkArg("revision", string(from)); err != nil {
		return nil, err
	}
	// -z ends every commit with a NUL, %x00 separates fields inside one;
	// a commit message cannot contain NUL, so the split is unambiguous.
	args := []string{"log", "-z", "--first-parent", "--no-show-signature", "--no-color",
		"--encoding=UTF-8", logFormat}
	if max > 0 {
		args = append(args, "--max-count="+strconv.Itoa(max))
	}
	args = append(args, pre...)
	args = append(args, "--end-of-options", string(from))
	args = append(args, post...)
	out, err := h.g.run(ctx, nil, true, args...)
	if err != nil {
		return nil, err
	}
	return parseLog(out)
}

// parseLog splits the output of git log -z with logFormat into commits.
func parseLog(out []byte) ([]Commit, error) {
	if len(out) == 0 {
		return nil, nil
	}
	fields := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(fields)%logFields != 0 {
		return nil, fmt.Errorf("git log: %d fields, not a multiple of %d", len(fields), logFields)
	}
	commits := make([]Commit, 0, len(fields)/logFields)
	for i := 0; i < len(fields); i += logFields {
		c, err := parseLogEntry(fields[i : i+logFields])
		if err != nil {
			return nil, err
		}
		commits = append(commits, c)
	}
	return commits, nil
}

func parseLogEntry(f []string) (Commit, error) {
	c := Commit{SHA: SHA(f[0]), Tree: SHA(f[1])}
	for _, p := range strings.Fields(f[2]) {
		c.Parents = append(c.Parents, SHA(p))
	}
	t, err := time.Parse(time.RFC3339, f[3])
	if err != nil {
		return Commit{}, fmt.Errorf("git log: commit %s: %w", f[0], err)
	}
	c.Time, c.Author = t, f[4]
	msg := f[5]
	subject, body, _ := strings.Cut(msg, "\n")
	c.Subject = subject
	c.Body = strings.TrimRight(strings.TrimLeft(body, "\n"), "\n")
	c.Message = msg
	return c, nil
}

// Mentioning returns the commits reachable from `from`, newest first, whose
// message holds text as a fixed string (git log -F --grep), merged branches
// included. Callers check the trailers: the grep only narrows the walk.
func (h History) Mentioning(ctx context.Context, from SHA, text string) ([]Commit, error) {
	if err := checkArg("revision", string(from)); err != nil {
		return nil, err
	}
	args := []string{"log", "-z", "--no-show-signature", "--no-color", "--encoding=UTF-8", logFormat,
		"--fixed-strings", "--grep=" + text, "--end-of-options", string(from)}
	out, err := h.g.run(ctx, nil, true, args...)
	if err != nil {
		return nil, err
	}
	return parseLog(out)
}

// ChangedFiles lists the repo-relative paths that differ between two commits;
// from == "" means the empty tree. Renames count as a deletion plus an
// addition, so both paths are listed.
func (h History) ChangedFiles(ctx context.Context, from, to SHA) ([]string, error) {
	if from == "" {
		var err error
		if from, err = h.g.emptyTree(ctx); err != nil {
			return nil, err
		}
	}
	for _, s := range []SHA{from, to} {
		if err := checkArg("object id", string(s)); err != nil {
			return nil, err
		}
	}
	out, err := h.g.run(ctx, nil, true, "diff-tree", "-r", "-z", "--name-only", "--no-renames",
		"--no-commit-id", "--no-ext-diff", string(from), string(to))
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			paths = append(paths, string(p))
		}
	}
	return paths, nil
}

// IsAncestor reports whether a is b or an ancestor of b.
func (h History) IsAncestor(ctx context.Context, a, b SHA) (bool, error) {
	for _, s := range []SHA{a, b} {
		if err := checkArg("object id", string(s)); err != nil {
			return false, err
		}
	}
	_, err := h.g.run(ctx, nil, true, "merge-base", "--is-ancestor", string(a), string(b))
	var ge *GitError
	if errors.As(err, &ge) && ge.ExitCode == 1 {
		return false, nil
	}
	return err == nil, err
}

// ShowFile returns the blob at path in rev as stored, without smudge or
// end-of-line filters. A missing path wraps fs.ErrNotExist.
func (h History) ShowFile(ctx context.Context, rev SHA, path string) ([]byte, error) {
	if err := checkArg("revision", string(rev)); err != nil {
		return nil, err
	}
	out, err := h.g.run(ctx, nil, true, "cat-file", "blob", string(rev)+":"+path)
	var ge *GitError
	if errors.As(err, &ge) && ge.ExitCode == 128 &&
		(strings.Contains(ge.Stderr, "does not exist") || strings.Contains(ge.Stderr, "Not a valid object name") ||
			strings.Contains(ge.Stderr, "exists on disk, but not in")) {
		return nil, fmt.Errorf("%s:%s: %w: %w", rev.Short(), path, fs.ErrNotExist, err)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// IsShallow reports whether the repository is a shallow clone, whose
// history ends at grafted commits rather than at its real roots.
func (h History) IsShallow(ctx context.Context) (bool, error) {
	out, err := h.g.run(ctx, nil, true, "rev-parse", "--is-shallow-repository")
	if err != nil {
		return false, fmt.Errorf("is shallow: %w", err)
	}
	return strings.TrimSpace(string(out)) == "true", nil
}

// StagedDiff is the patch of what the index holds beyond the commit base
// (git diff --cached base), without color, external diff drivers or
// textconv, leaving out the paths in exclude (repo-relative): what a
// reviewer reads of a task's change.
func (h History) StagedDiff(ctx context.Context, base SHA, exclude ...string) (string, error) {
	if err := checkArg("object id", string(base)); err != nil {
		return "", err
	}
	args := []string{"diff-index", "--cached", "-p", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", string(base), "--", "."}
	for _, p := range exclude {
		args = append(args, ":(exclude,literal,top)"+p)
	}
	out, err := h.g.run(ctx, nil, true, args...)
	if err != nil {
		return "", fmt.Errorf("diff of the index against %s: %w", base.Short(), err)
	}
	return string(out), nil
}
