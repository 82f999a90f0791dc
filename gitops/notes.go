package gitops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// Notes reads and writes git notes: planx keeps a task's record in one,
// attached to the task's commit.
type Notes struct {
	g         *runner
	commonDir string
}

// Notes returns the repository's notes.
func (r *Repo) Notes() Notes { return Notes{&r.runner, r.CommonDir} }

// Add attaches content to the commit sha under notesRef (for example
// "refs/notes/planx"), replacing any note already there. The note is read
// from stdin, so its size and bytes are not limited by the command line.
//
// Notes are commits on their own ref: git needs a committer identity, and the
// ref is not pushed or fetched unless asked (git push origin refs/notes/planx).
func (n Notes) Add(ctx context.Context, notesRef string, sha SHA, content []byte) error {
	if err := checkArg("notes ref", notesRef); err != nil {
		return err
	}
	if err := checkArg("object id", string(sha)); err != nil {
		return err
	}
	if content == nil {
		content = []byte{}
	}
	// git notes moves the ref to its new commit without checking that
	// the ref is still at the commit it built on: two runs of the
	// repository (in two linked work trees) adding notes at once would
	// lose one. planx's note writers take turns.
	unlock, err := lockFile(filepath.Join(n.commonDir, "planx", "notes.lock"))
	if err != nil {
		return fmt.Errorf("add note %s to %s: %w", notesRef, sha.Short(), err)
	}
	defer unlock()
	// --allow-empty: an empty note still says "planx recorded this"; without it
	// git would silently remove the note instead.
	if _, err := n.g.write(ctx, content, "notes", "--ref="+notesRef, "add", "--allow-empty", "-f", "-F", "-", string(sha)); err != nil {
		return fmt.Errorf("add note %s to %s: %w", notesRef, sha.Short(), err)
	}
	return nil
}

// Show returns the note attached to sha under notesRef, or (nil, nil) when
// there is none (including when notesRef does not exist).
func (n Notes) Show(ctx context.Context, notesRef string, sha SHA) ([]byte, error) {
	if err := checkArg("notes ref", notesRef); err != nil {
		return nil, err
	}
	if err := checkArg("object id", string(sha)); err != nil {
		return nil, err
	}
	out, err := n.g.run(ctx, nil, true, "notes", "--ref="+notesRef, "show", string(sha))
	var ge *GitError
	if errors.As(err, &ge) && ge.ExitCode == 1 && strings.Contains(ge.Stderr, "no note found") {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read note %s of %s: %w", notesRef, sha.Short(), err)
	}
	return out, nil
}

// ShowAll returns the notes under notesRef of those of shas that have one, in
// two git processes whatever their number: the notes ref's listing, then
// the note blobs through one git cat-file --batch.
func (n Notes) ShowAll(ctx context.Context, notesRef string, shas []SHA) (map[SHA][]byte, error) {
	if err := checkArg("notes ref", notesRef); err != nil {
		return nil, err
	}
	out := map[SHA][]byte{}
	if sha, err := n.g.refs().ResolveObject(ctx, notesRef); err != nil || sha == "" {
		return out, err // no notes ref: no notes
	}
	list, err := n.g.run(ctx, nil, true, "notes", "--ref="+notesRef, "list")
	if err != nil {
		return nil, fmt.Errorf("list notes %s: %w", notesRef, err)
	}
	want := map[SHA]bool{}
	for _, s := range shas {
		want[s] = true
	}
	var blobs []string
	var owners []SHA
	for _, line := range strings.Split(strings.TrimSpace(string(list)), "\n") {
		blob, obj, ok := strings.Cut(line, " ")
		if ok && want[SHA(obj)] {
			blobs = append(blobs, blob)
			owners = append(owners, SHA(obj))
		}
	}
	if len(blobs) == 0 {
		return out, nil
	}
	batch, err := n.g.run(ctx, []byte(strings.Join(blobs, "\n")+"\n"), true, "cat-file", "--batch")
	if err != nil {
		return nil, fmt.Errorf("read notes %s: %w", notesRef, err)
	}
	for i := range blobs {
		// "<id> blob <size>\n<content>\n"
		head, rest, ok := bytes.Cut(batch, []byte("\n"))
		f := strings.Fields(string(head))
		if !ok || len(f) != 3 {
			return nil, fmt.Errorf("read notes %s: unexpected git cat-file output", notesRef)
		}
		n, err := strconv.Atoi(f[2])
		if err != nil || n+1 > len(rest) {
			return nil, fmt.Errorf("read notes %s: unexpected git cat-file output", notesRef)
		}
		out[owners[i]] = rest[:n]
		batch = rest[n+1:]
	}
	return out, nil
}

// Added compares two commits of a notes ref (old "" for none) and returns
// the objects that gained a note, and whether any note was changed or
// removed besides.
func (n Notes) Added(ctx context.Context, old, now SHA) (added []SHA, other bool, err error) {
	if err := checkArg("object id", string(now)); err != nil {
		return nil, false, err
	}
	from := old
	if from == "" {
		if from, err = n.g.emptyTree(ctx); err != nil {
			return nil, false, err
		}
	} else if err := checkArg("object id", string(old)); err != nil {
		return nil, false, err
	}
	out, err := n.g.run(ctx, nil, true, "diff-tree", "-r", "--no-renames", "--name-status", "-z", string(from), string(now))
	if err != nil {
		return nil, false, fmt.Errorf("compare notes %s..%s: %w", old.Short(), now.Short(), err)
	}
	f := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	for i := 0; i+1 < len(f); i += 2 {
		// A note's path is the object id, split into fan-out directories.
		if f[i] == "A" {
			added = append(added, SHA(strings.ReplaceAll(f[i+1], "/", "")))
		} else {
			other = true
		}
	}
	return added, other, nil
}
