package handconfig

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
	"path/filepath"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/run/runstate"
)

// goneDigest is the digest of a file that does not exist.
const goneDigest = "deleted"

// Digest identifies the bytes of .planx.yaml in the work tree at root, or
// its absence: what the run state keeps of a person's edit (HandConfig).
func Digest(root string) (string, error) {
	return digest(filepath.Join(root, gates.ConfigFile))
}

// digest identifies the bytes of the file p, or its absence.
func digest(p string) (string, error) {
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

// EditedSinceStop reports whether .planx.yaml changed after the run
// stopped (see StopTree; after a crash it reports no edit); head is
// planx's last commit.
func EditedSinceStop(ctx context.Context, repo *gitops.Repo, st *runstate.State, head gitops.SHA) (bool, error) {
	since := StopTree(st, head)
	if since == "" {
		return false, nil
	}
	before, err := repo.History().ShowFile(ctx, since, gates.ConfigFile)
	had := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("read %s at the stop: %w", gates.ConfigFile, err)
	}
	now, err := os.ReadFile(filepath.Join(repo.Root, gates.ConfigFile))
	has := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("read %s: %w", gates.ConfigFile, err)
	}
	return had != has || !bytes.Equal(before, now), nil
}

// Remember notes, when a resume or skip takes up the stopped run st (head:
// planx's last commit), an edit of .planx.yaml since the stop as the
// person's: its digest goes into the run state, so that it stays theirs
// through later stops.
func Remember(ctx context.Context, repo *gitops.Repo, st *runstate.State, head gitops.SHA) error {
	edited, err := EditedSinceStop(ctx, repo, st, head)
	if err != nil || !edited {
		return err
	}
	if st.HandConfig, err = Digest(repo.Root); err != nil {
		return fmt.Errorf("read %s: %w", gates.ConfigFile, err)
	}
	return nil
}

// StopTree is the tree a person's edits after a stop are counted from: the
// one recorded at the stop, or planx's last commit head when no attempt was
// in flight; "" after a crash (an attempt started, no stop recorded), when
// a person's edits cannot be told from the attempt's (package attempt).
func StopTree(st *runstate.State, head gitops.SHA) gitops.SHA {
	switch {
	case st.AttemptStop != "":
		return st.AttemptStop
	case st.AttemptPre != "":
		return ""
	}
	return head
}

// Holds reports whether .planx.yaml in the work tree at root still holds
// the person's edit the run state remembers (st.HandConfig): changed again
// since (by a task), it is that task's change.
func Holds(root string, st *runstate.State) bool {
	if st.HandConfig == "" {
		return false
	}
	d, err := Digest(root)
	return err == nil && d == st.HandConfig
}

// Unstaged is what staging leaves alone: .planx.yaml while it holds the
// person's edit made after a stop (Holds). Changed again since, it is
// staged and judged as the task's change.
func Unstaged(root string, st *runstate.State) []string {
	if !Holds(root, st) {
		return nil
	}
	return []string{gates.ConfigFile}
}

// Notice says, when .planx.yaml in the work tree (at root) differs
// from the configuration the run pinned, that the run keeps the pinned one
// and how to use the new one; "" when they agree. hand says the difference
// is a person's edit made after a stop.
func Notice(root string, j *runstate.Pinned, hand bool) string {
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
