package gitops

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// AddNote attaches content to the commit sha under notesRef (for example
// "refs/notes/planx"), replacing any note already there. The note is read
// from stdin, so its size and bytes are not limited by the command line.
//
// Notes are commits on their own ref: git needs a committer identity, and the
// ref is not pushed or fetched unless asked (git push origin refs/notes/planx).
func (r *Repo) AddNote(ctx context.Context, notesRef string, sha SHA, content []byte) error {
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
	if _, err := r.write(ctx, content, "notes", "--ref="+notesRef, "add", "--allow-empty", "-f", "-F", "-", string(sha)); err != nil {
		return fmt.Errorf("add note %s to %s: %w", notesRef, sha.Short(), err)
	}
	return nil
}

// Note returns the note attached to sha under notesRef, or (nil, nil) when
// there is none (including when notesRef does not exist).
func (r *Repo) Note(ctx context.Context, notesRef string, sha SHA) ([]byte, error) {
	if err := checkArg("notes ref", notesRef); err != nil {
		return nil, err
	}
	if err := checkArg("object id", string(sha)); err != nil {
		return nil, err
	}
	out, err := r.run(ctx, nil, true, "notes", "--ref="+notesRef, "show", string(sha))
	var ge *GitError
	if errors.As(err, &ge) && ge.ExitCode == 1 && strings.Contains(ge.Stderr, "no note found") {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read note %s of %s: %w", notesRef, sha.Short(), err)
	}
	return out, nil
}
