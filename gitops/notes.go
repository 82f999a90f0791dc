package gitops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Notes reads and writes git notes: planx keeps a task's record in one,
// attached to the task's commit.
type Notes struct{ g *runner }

// Notes returns the repository's notes.
func (r *Repo) Notes() Notes { return Notes{&r.runner} }

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
