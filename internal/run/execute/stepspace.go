package execute

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/space"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// A serial task's steps run in a task space over the user's work tree
// where the platform has one: a light one (space.Options.TreeOnly), whose
// only layer is the work tree's; everything else the steps write (caches,
// files and fifos their scripts share outside the repository) reaches the
// machine as without a space. Their processes live in the space's PID
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

// StepSpaces reports whether the run's serial steps get a task space:
// spaces are available (the agents' probe: not `sandbox: off`, not
// `sandbox: {space: false}` nor capped) and the steps are not confined by
// denial instead (`sandbox: {steps: true}`).
func (j *Jail) StepSpaces() bool {
	return j != nil && !j.cfg.Steps && j.hasSpaces()
}

// StepSpaceDir is where the task space of task id's steps over the work
// tree dir keeps its state in run runID.
func StepSpaceDir(runID string, id planparse.TaskID, dir string) (string, error) {
	parent, err := space.StateParent(dir)
	if err != nil {
		return "", err
	}
	return filepath.Join(parent, runID+"-"+string(id)+"-steps"), nil
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
	if err := removeAll(o.StepSpace); err != nil {
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

// removeAll removes a space's state directory, making what the kernel
// left mode 0 (an overlay's work directory) removable first.
func removeAll(dir string) error {
	if err := os.RemoveAll(dir); err == nil {
		return nil
	}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o700)
		}
		return nil
	})
	return os.RemoveAll(dir)
}

// StepsEnd is what planx took from a task's steps besides their outcome.
type StepsEnd struct {
	// Wrote are the work tree's paths the steps wrote or deleted in their
	// task space (sorted); nil when they ran in the work tree itself.
	Wrote []string
	// Tip is the commit HEAD named in the space when a step committed
	// there ("" otherwise): its objects are in the repository, and its
	// commits are folded into the task's.
	Tip string
}

// takeSteps takes the steps' change out of their space sp into the work
// tree: every path they wrote or deleted, but those a person changed there
// since the attempt started (o.Start), which keep the person's version;
// the task's version of those is kept under a ref and the task fails,
// naming them. The space is then closed; its state directory stays,
// marked, until the run ends.
func (o Options) takeSteps(ctx context.Context, t *planparse.Task, sp *space.Space) (StepsEnd, error) {
	var end StepsEnd
	defer sp.Close()
	if err := sp.SetupError(); err != nil {
		return end, fmt.Errorf("%s: the steps' task space: %w", t.ID, err)
	}
	cs, err := sp.Changes()
	if err != nil {
		return end, fmt.Errorf("%s: the steps' change in their task space: %w", t.ID, err)
	}
	end.Wrote = slices.Concat([]string{}, cs.Written, cs.Deleted)
	slices.Sort(end.Wrote)
	var both []string
	if o.Start != "" && o.Repo != nil && len(end.Wrote) > 0 {
		if both, err = o.Repo.Objects().ChangedSince(ctx, o.Start, end.Wrote); err != nil {
			return end, fmt.Errorf("%s: what a person changed while its steps ran: %w", t.ID, err)
		}
	}
	if err := os.WriteFile(filepath.Join(o.StepSpace, applyingFile), nil, 0o600); err != nil {
		return end, fmt.Errorf("%s: %w", t.ID, err)
	}
	if _, err := sp.ApplyHolding(o.Dir, func(rel string) bool { return underAny(rel, both) }); err != nil {
		return end, fmt.Errorf("%s: take the steps' work out of their task space: %w", t.ID, err)
	}
	if tip, err := adoptCommits(sp, o.Repo); err != nil {
		return end, fmt.Errorf("%s: the commits its steps made: %w", t.ID, err)
	} else {
		end.Tip = tip
	}
	if len(both) > 0 {
		return end, o.keepBoth(ctx, t, sp, cs, both)
	}
	return end, nil
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
	kept, err := o.Repo.Objects().CommitFiles(ctx, o.Start, upper, written, deleted, msg)
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

// adoptCommits takes the objects of commits made in the space sp into the
// repository and returns where HEAD ended there ("" when it did not move).
func adoptCommits(sp *space.Space, repo *gitops.Repo) (string, error) {
	if repo == nil {
		return "", nil
	}
	layer := gitops.LayerOf(repo, sp.UpperOf)
	head, herr := layer.Head()
	now, err := gitops.LayerOf(repo, func(string) (string, bool) { return "", false }).Head()
	if herr != nil || err != nil || head == now {
		return "", nil
	}
	if _, err := layer.AdoptObjects(); err != nil {
		return "", err
	}
	return string(head), nil
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
// what they wrote or deleted. The space is removed either way.
func KeepSpace(ctx context.Context, repo *gitops.Repo, dir string, pre gitops.SHA, ref, message string) (paths []string, applied bool, err error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, false, nil // killed before the space was made: nothing written
	}
	defer removeAll(dir)
	sp, err := space.Open(space.Options{Root: repo.Root, Dir: dir, TreeOnly: true})
	if err != nil {
		return nil, false, fmt.Errorf("the stopped task's space %s: %w", dir, err)
	}
	defer sp.Close()
	cs, err := sp.Changes()
	if err != nil {
		return nil, false, fmt.Errorf("the stopped task's space %s: %w", dir, err)
	}
	if _, err := os.Stat(filepath.Join(dir, applyingFile)); err == nil {
		if err := sp.Apply(repo.Root); err != nil {
			return nil, true, fmt.Errorf("take the stopped task's work out of its space %s: %w", dir, err)
		}
		return nil, true, nil
	}
	if cs.Empty() {
		return nil, false, nil
	}
	upper, _ := sp.UpperOf(repo.Root)
	kept, err := repo.Objects().CommitFiles(ctx, pre, upper, cs.Written, cs.Deleted, message)
	if err != nil {
		return nil, false, fmt.Errorf("keep the stopped task's work: %w", err)
	}
	if err := repo.Refs().Update(ctx, ref, kept, "", "planx: a killed attempt's work in its task space"); err != nil {
		return nil, false, err
	}
	return slices.Concat(cs.Written, cs.Deleted), false, nil
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
			_ = removeAll(d)
		}
	}
}
