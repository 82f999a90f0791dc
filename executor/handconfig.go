package executor

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/runstate"
)

// A person may edit .planx.yaml while a run is stopped, typically to fix a
// gate. The run keeps the judge it pinned when it started (judge.go), so a
// task can never loosen its own checks, and says so. The edit is the
// person's, not the stopped task's: it is not judged as the task's, never
// staged into a task commit, and stays in the work tree as an uncommitted
// change when the run ends or is aborted, ready for the next run.

// goneDigest is the digest of a file that does not exist.
const goneDigest = "deleted"

// fileDigest identifies the bytes of the file p, or its absence.
func fileDigest(p string) (string, error) {
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return goneDigest, nil
	}
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// configEditedSinceStop reports whether .planx.yaml changed after the run
// stopped (see stopTree; after a crash it reports no edit).
func configEditedSinceStop(ctx context.Context, repo *gitops.Repo, st *runstate.State, head gitops.SHA) (bool, error) {
	since := stopTree(st, head)
	if since == "" {
		return false, nil
	}
	before, err := repo.History().ShowFile(ctx, since, gates.ConfigFile)
	had := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("read %s at the stop: %w", gates.ConfigFile, err)
	}
	now, err := os.ReadFile(relJoin(repo.Root, gates.ConfigFile))
	has := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("read %s: %w", gates.ConfigFile, err)
	}
	return had != has || !bytes.Equal(before, now), nil
}

// stopTree is the tree a person's edits after a stop are counted from: the
// one recorded at the stop, or planx's last commit head when no attempt was
// in flight; "" after a crash (an attempt started, no stop recorded), when
// a person's edits cannot be told from the attempt's (snapshot.go).
func stopTree(st *runstate.State, head gitops.SHA) gitops.SHA {
	switch {
	case st.AttemptStop != "":
		return st.AttemptStop
	case st.AttemptPre != "":
		return ""
	}
	return head
}

// noteHandConfig runs when resume or skip takes up a stopped run, before it
// touches the stopped attempt: an edit of .planx.yaml since the stop is the
// person's, remembered by its digest in the run state so that it stays
// theirs through later stops, and the person is told that the run keeps
// its pinned gates.
// With repin (`planx resume --repin`) the edit becomes the run's judge
// instead (repin.go).
func (r *runner) noteHandConfig(ctx context.Context, repin bool) error {
	edited, err := configEditedSinceStop(ctx, r.repo, r.st, r.expect)
	if err != nil {
		return err
	}
	if edited {
		if r.st.HandConfig, err = fileDigest(relJoin(r.repo.Root, gates.ConfigFile)); err != nil {
			return fmt.Errorf("read %s: %w", gates.ConfigFile, err)
		}
	}
	if repin {
		return r.repin()
	}
	r.sayConfigPinned()
	return nil
}

// sayConfigPinned tells the person, when .planx.yaml no longer says what
// the run pinned, that the run keeps the pinned gates and settings.
func (r *runner) sayConfigPinned() {
	if n := configNotice(r.repo.Root, r.st.Pinned, len(r.handConfig()) > 0); n != "" {
		r.out.Println("planx: %s", n)
	}
}

// handConfig is what staging leaves alone: .planx.yaml while it holds the
// person's edit made after a stop. Changed again since (by a task), it is
// staged and judged as that task's change.
func (r *runner) handConfig() []string {
	if r.st.HandConfig == "" {
		return nil
	}
	if d, err := fileDigest(relJoin(r.repo.Root, gates.ConfigFile)); err != nil || d != r.st.HandConfig {
		return nil
	}
	return []string{gates.ConfigFile}
}

// configNotice says, when .planx.yaml in the work tree (at root) differs
// from the configuration the run pinned, that the run keeps the pinned one
// and how to use the new one; "" when they agree. hand says the difference
// is a person's edit made after a stop.
func configNotice(root string, j *runstate.Pinned, hand bool) string {
	if j == nil {
		return ""
	}
	cfg, err := gates.LoadConfig(root)
	if err == nil && sameConfig(cfg, j.Config) {
		return ""
	}
	what := gates.ConfigFile + " differs from the configuration this run started with"
	if err != nil {
		what = gates.ConfigFile + " no longer loads (" + err.Error() + ")"
	}
	msg := what + "; the run keeps the gates and settings it started with"
	if hand {
		msg += " (your edit is left uncommitted: no task commit takes it)"
	}
	msg += ". To use the edited ones: `planx abort` (which keeps your " + gates.ConfigFile + "), then run the plan again"
	if hand {
		msg += "; or `planx resume --repin`"
	}
	return msg
}

// sameConfig compares two configurations as the run state stores them.
func sameConfig(a, b gates.Config) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	if errA != nil || errB != nil {
		return false
	}
	var na, nb gates.Config
	if json.Unmarshal(ja, &na) != nil || json.Unmarshal(jb, &nb) != nil {
		return false
	}
	ja, errA = json.Marshal(na)
	jb, errB = json.Marshal(nb)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}
