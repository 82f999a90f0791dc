package execute

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fsutil"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/space"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// A serial task's steps run in a task space over the user's work tree
// where the platform has one: a light one (space.Options.TreeOnly), whose
// only layer is the work tree's; everything else the steps write (caches,
// files and fifos their scripts share outside the repository, the
// repository's .git: commits, stashes) reaches the machine as without a
// space. Their processes live in the space's PID
// namespace, whose first process dies with planx: a killed planx leaves
// no step writing. All the task's steps run in the one space, in order,
// each seeing the earlier ones' writes; when they end (passed, failed or
// interrupted), planx takes their change into the work tree. What a
// person changed in the work tree meanwhile is theirs: a path the steps
// did not write is a hand edit (verify leaves it out of the task's commit);
// a path both changed keeps the person's version in the work tree and the
// task's under a ref, and the task fails naming it.
//
// The space's state directory is fixed before the steps start and the run
// state names it (runstate.State.AttemptSpace): a recovery after planx
// was killed finds there what the steps wrote, which never reached the
// work tree (RecoverSpaces).

// StepSpaces reports whether the run's serial steps in the work tree root
// get a task space: spaces are available (the agents' probe: not
// `sandbox: off`, not `sandbox: {space: false}` nor capped), the steps are
// not confined by denial instead (`sandbox: {steps: true}`), and the work
// tree holds no mount point (no overlay can be made over it: its steps
// run in it as without spaces).
func (j *Jail) StepSpaces(root string) bool {
	return j != nil && !j.cfg.Steps && j.hasSpaces() && !space.HoldsMounts(root)
}

// StepSpaceDir is where the task space of task id's steps over the work
// tree dir keeps its state in run runID.
func StepSpaceDir(runID string, id planparse.TaskID, dir string) (string, error) {
	parent, err := space.StateParent(dir)
	if err != nil {
		return "", err
	}
	return filepath.Join(parent, runID+"-"+string(id)+stepsSuffix), nil
}

// applyingFile, in a step space's state directory, says planx began to
// take the steps' change into the work tree: a recovery finishes that
// rather than keeping it apart.
const applyingFile = "applying"

// openStepSpace opens the light space of t's steps at o.StepSpace, or
// returns nil when they run in the work tree itself.
func (o Options) openStepSpace(t *planparse.Task) (*space.Space, error) {
	if o.StepSpace == "" {
		return nil, nil
	}
	if err := space.RemoveAll(o.StepSpace); err != nil {
		return nil, fmt.Errorf("%s: task space: %w", t.ID, err)
	}
	if err := os.MkdirAll(o.StepSpace, 0o700); err != nil {
		return nil, fmt.Errorf("%s: task space: %w", t.ID, err)
	}
	if err := os.WriteFile(filepath.Join(o.StepSpace, targetFile), []byte(o.Dir), 0o600); err != nil {
		return nil, fmt.Errorf("%s: task space: %w", t.ID, err)
	}
	sp, err := space.Open(space.Options{Root: o.Dir, Dir: o.StepSpace, TreeOnly: true})
	if err != nil {
		return nil, fmt.Errorf("%s: task space: %w", t.ID, err)
	}
	return sp, nil
}

// StepsEnd is what planx took from a task's steps besides their outcome.
type StepsEnd struct {
	// Wrote are the work tree's paths the steps wrote or deleted in their
	// task space (sorted); nil when they ran in the work tree itself.
	Wrote []string
}

// takeSteps takes the steps' change out of their space sp into the work
// tree: every path they wrote or deleted, but planx's own files (o.Own)
// and those a person changed there while they ran, which keep the
// person's version (the task's is kept under a ref and the task fails,
// naming them). The space stays, marked as applying, until the
// attempt's end is recorded.
func (o Options) takeSteps(ctx context.Context, t *planparse.Task, sp *space.Space) (StepsEnd, error) {
	var end StepsEnd
	// The space is not closed: its upper layer says what the steps wrote
	// until the attempt's end is recorded, for a recovery after planx is
	// killed before that (KeepSpace). Its state directory goes when the
	// next attempt is named, when the run ends, or at that recovery.
	if err := sp.SetupError(); err != nil {
		return end, fmt.Errorf("%s: the steps' task space: %w", t.ID, err)
	}
	cs, err := sp.Changes()
	if err != nil {
		return end, fmt.Errorf("%s: the steps' change in their task space: %w", t.ID, err)
	}
	end.Wrote = slices.Concat([]string{}, cs.Written, cs.Deleted)
	slices.Sort(end.Wrote)
	both, err := o.touched(ctx, cs)
	if err != nil {
		return end, fmt.Errorf("%s: what a person changed while its steps ran: %w", t.ID, err)
	}
	if err := os.WriteFile(filepath.Join(o.StepSpace, applyingFile), nil, 0o600); err != nil {
		return end, fmt.Errorf("%s: %w", t.ID, err)
	}
	// planx's own files (the execution log) are planx's to write.
	hold := func(rel string) bool { return underAny(rel, both) || slices.Contains(o.Own, rel) }
	if _, err := sp.ApplyHolding(o.Dir, hold); err != nil {
		return end, fmt.Errorf("%s: take the steps' work out of their task space: %w", t.ID, err)
	}
	if len(both) > 0 {
		return end, o.keepBoth(ctx, t, sp, cs, both)
	}
	return end, nil
}

// touched are the paths of the steps' change cs that a person changed in
// the work tree while they ran: a file whose inode changed since the
// space was opened (its target file's change time, on the same kernel
// clock; an edit in the same tick counts, so that none is lost), or that
// is gone from the work tree though the tree the attempt started from
// (o.Start) had it.
func (o Options) touched(ctx context.Context, cs space.ChangeSet) ([]string, error) {
	fi, err := os.Stat(filepath.Join(o.StepSpace, targetFile))
	if err != nil {
		return nil, err
	}
	opened := changeTimeOf(fi)
	var both, gone []string
	for _, p := range slices.Concat(cs.Written, cs.Deleted) {
		if slices.Contains(o.Own, p) {
			continue // planx's, never taken out
		}
		fi, err := os.Lstat(filepath.Join(o.Dir, filepath.FromSlash(p)))
		switch {
		case err == nil && changeTimeOf(fi) >= opened:
			both = append(both, p)
		case errors.Is(err, fs.ErrNotExist) && !slices.Contains(cs.Deleted, p):
			gone = append(gone, p)
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return nil, err
		}
	}
	if len(gone) > 0 && o.Start != "" && o.Repo != nil {
		had, err := o.Repo.Objects().InTree(ctx, o.Start, gone)
		if err != nil {
			return nil, err
		}
		for _, p := range gone {
			if had[p] {
				both = append(both, p)
			}
		}
	}
	slices.Sort(both)
	return both, nil
}

// changeTimeOf is fi's change time (0 when the platform does not say).
func changeTimeOf(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return changeTime(st)
	}
	return 0
}

// keepBoth keeps the steps' version of the paths a person changed too
// (both) under a ref, and fails the task naming them.
func (o Options) keepBoth(ctx context.Context, t *planparse.Task, sp *space.Space, cs space.ChangeSet, both []string) error {
	upper, _ := sp.UpperOf(o.Dir)
	var written, deleted []string
	for _, p := range both {
		if slices.Contains(cs.Deleted, p) {
			deleted = append(deleted, p)
		} else {
			written = append(written, p)
		}
	}
	msg := fmt.Sprintf("planx: %s's version of paths a person changed while its steps ran\n\n%s: %s\n", t.ID, record.TrailerRun, o.RunID)
	kept, _, err := o.Repo.Objects().CommitFiles(ctx, o.Start, upper, written, deleted, msg)
	if err != nil {
		return fmt.Errorf("%s: keep its version of %s: %w", t.ID, textsafe.List(both), err)
	}
	ref := record.RunRef(o.RunID, "kept/"+string(t.ID)+"-steps")
	if err := o.Repo.Refs().Update(ctx, ref, kept, "", "planx: a task's version of paths a person changed"); err != nil {
		return err
	}
	return &outcome.Failure{
		What: fmt.Sprintf("%s changed while %s's steps ran, by them and by a person: your version is in the work tree, the task's is kept at %s",
			textsafe.List(both), t.ID, ref),
		Hint: fmt.Sprintf("`git diff %s -- %s` shows the task's version against yours (`git checkout %s -- %s` takes it); merge them, then `planx resume`",
			ref, both[0], ref, both[0]),
	}
}

// underAny reports whether p is one of paths or lies under one.
func underAny(p string, paths []string) bool {
	return slices.ContainsFunc(paths, func(q string) bool { return p == q || strings.HasPrefix(p, q+"/") })
}

// KeepSpace is a recovery's look at the task space at dir, over the work
// tree of repo, that a stopped attempt's steps ran in from the commit pre
// (planx was killed before it took their work out). When planx had begun
// to take it into the work tree (applyingFile), it finishes that, and
// applied says so. Otherwise nothing of the steps' work is in the work
// tree: it is kept as a commit (child of pre) under ref, and paths are
// what they wrote or deleted (but ignored files, which no commit holds and
// which go with the space). The space is removed either way.
func KeepSpace(ctx context.Context, repo *gitops.Repo, dir string, pre gitops.SHA, ref, message string) (paths, taken []string, err error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, nil, nil // killed before the space was made: nothing written
	}
	defer space.RemoveAll(dir)
	sp, err := space.Open(space.Options{Root: repo.Root, Dir: dir, TreeOnly: true})
	if err != nil {
		return nil, nil, fmt.Errorf("the stopped task's space %s: %w", dir, err)
	}
	defer sp.Close()
	_, aerr := os.Stat(filepath.Join(dir, applyingFile))
	applying := aerr == nil
	read := sp.Changes
	if applying {
		// Taken out, wholly or in part: the work tree may hold the steps'
		// bytes already, which Changes would not list.
		read = sp.Layer
	}
	cs, err := read()
	if err != nil {
		return nil, nil, fmt.Errorf("the stopped task's space %s: %w", dir, err)
	}
	if cs.Empty() {
		return nil, nil, nil
	}
	upper, _ := sp.UpperOf(repo.Root)
	if applying {
		taken = takenOut(repo.Root, upper, cs)
	}
	kept, left, err := repo.Objects().CommitFiles(ctx, pre, upper, cs.Written, cs.Deleted, message)
	if err != nil {
		return nil, nil, fmt.Errorf("keep the stopped task's work: %w", err)
	}
	// Ignored files (a build's output, a local configuration it wrote
	// over) are in no commit: they go with the space.
	paths = slices.DeleteFunc(slices.Concat(cs.Written, cs.Deleted), func(p string) bool { return slices.Contains(left, p) })
	if len(paths) == 0 {
		return nil, taken, nil
	}
	if err := repo.Refs().Update(ctx, ref, kept, "", "planx: a killed attempt's work in its task space"); err != nil {
		return nil, nil, err
	}
	return paths, taken, nil
}

// takenOut are the paths of the steps' change cs that planx had taken
// into the work tree at root when it was killed: a written file the work
// tree holds byte for byte as the upper layer does, a deleted path the
// work tree lacks. A file holding another version is a person's (edited
// after the kill) and is never taken back.
func takenOut(root, upper string, cs space.ChangeSet) []string {
	var taken []string
	for _, p := range cs.Written {
		a, err1 := os.ReadFile(fsutil.Under(upper, p))
		b, err2 := os.ReadFile(fsutil.Under(root, p))
		if err1 == nil && err2 == nil && bytes.Equal(a, b) {
			taken = append(taken, p)
		}
	}
	for _, p := range cs.Deleted {
		if _, err := os.Lstat(fsutil.Under(root, p)); errors.Is(err, fs.ErrNotExist) {
			taken = append(taken, p)
		}
	}
	return taken
}

// DropSpace removes the state directory of a step space whose attempt's
// end is recorded.
func DropSpace(dir string) { _ = space.RemoveAll(dir) }

// stepsSuffix ends the name of a step space's state directory
// (StepSpaceDir), which an agent's never does.
const stepsSuffix = "-steps"

// isStepSpace reports whether the state directory dir is a step space's.
func isStepSpace(dir string) bool { return strings.HasSuffix(dir, stepsSuffix) }

// DropStepSpaces removes the state directories of run runID's step
// spaces: the attempts they served have ended on record (a commit, a
// stop), and their upper layers — kept after their work was taken out,
// for a recovery (KeepSpace) — must not be read again as work not taken.
func DropStepSpaces(runID string) {
	if runID == "" {
		return
	}
	for _, parent := range space.StateCandidates() {
		dirs, _ := filepath.Glob(filepath.Join(parent, runID+"-*"+stepsSuffix))
		for _, d := range dirs {
			_ = space.RemoveAll(d)
		}
	}
}

// RemoveSpaces removes what is left of the task spaces of run runID (the
// state directories of its steps' spaces, kept until the run ends).
func RemoveSpaces(runID string) {
	if runID == "" {
		return
	}
	for _, parent := range space.StateCandidates() {
		dirs, _ := filepath.Glob(filepath.Join(parent, runID+"-*"))
		for _, d := range dirs {
			_ = space.RemoveAll(d)
		}
	}
}
