package recovery

import (
	"context"
	"fmt"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/attempt"
	"github.com/planx-dev/planx/internal/run/execute"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/textsafe"
)

// CleanRun readies a stopped run st for resume, skip or abort, under the
// lock, before anything else touches the work tree: it kills what the
// run's processes left running (execute.CleanOrphans, execute.CleanRun),
// keeps apart what the stopped attempt wrote in its task space
// (RecoverSpace), then takes in what the run's other spaces hold (an
// agent's in a wave's slot: execute.RecoverSpaces).
func CleanRun(ctx context.Context, repo *gitops.Repo, st *runstate.State, out *progress.Progress) error {
	execute.CleanOrphans(execute.PidsIn(repo.PlanxDir()), out)
	execute.CleanRun(st.RunID, out)
	if err := RecoverSpace(ctx, repo, st, out); err != nil {
		return err
	}
	execute.RecoverSpaces(st.RunID, out)
	return nil
}

// RecoverSpace settles the task space the stopped attempt's steps ran in
// (st.AttemptSpace) when planx was killed before it took their work out:
// that work never reached the work tree, so it is kept under a stop ref
// (named, with the command that gets it back), and the attempt's stop is
// its start: every change in the work tree since the attempt started is a
// person's, which resume, skip and abort keep as such (verify.Belongs
// decides whether it goes into the task's commit). When planx had begun
// to take the work out, it finishes that, and the stop is the work tree as
// found (attempt.Records.Compare), as after a crash without a space.
func RecoverSpace(ctx context.Context, repo *gitops.Repo, st *runstate.State, out *progress.Progress) error {
	dir := st.AttemptSpace
	if dir == "" {
		return nil
	}
	st.AttemptSpace = ""
	ended := st.AttemptStop != "" || st.AttemptPre == "" || st.Phase == runstate.PhaseCommit
	if !ended {
		var err error
		if ended, err = committed(ctx, repo, st); err != nil {
			return err
		}
	}
	if ended {
		// A recorded stop: the steps' work was taken out before it; or a
		// commit under way or made, which holds that work (the state is
		// saved before the commit, not after: git's word decides).
		execute.DropSpace(dir)
		return nil
	}
	ref := record.RunRef(st.RunID, fmt.Sprintf("stops/%d-%s", st.Stops+1, st.Current))
	msg := fmt.Sprintf("planx: what %s's killed attempt wrote in its task space\n\n%s: %s\n", st.Current, record.TrailerRun, st.RunID)
	paths, taken, err := execute.KeepSpace(ctx, repo, dir, st.AttemptPre, ref, msg)
	if err != nil {
		return err
	}
	// Killed while (or after) planx took the steps' work into the work
	// tree: what it took goes back as the attempt found it, so that, as
	// when it had not begun, the work tree holds only a person's changes.
	if err := attempt.RestorePaths(ctx, repo, st.AttemptPre, taken); err != nil {
		return fmt.Errorf("put back what %s's killed attempt took into the work tree: %w", st.Current, err)
	}
	st.AttemptStop = st.AttemptPre
	if len(paths) > 0 {
		st.Stops++
		st.StopRef = ref
		where := "never reached the work tree"
		if len(taken) > 0 {
			where = "was taken back out of the work tree, where planx had begun to put it"
		}
		out.Println("planx: %s was stopped while its steps ran in a task space: what they wrote (%s) %s; it is kept at %s (`git checkout %s -- %s` gets it back); the work tree's changes since the task started are yours",
			st.Current, textsafe.List(paths), where, ref, ref, paths[0])
	}
	return nil
}

// committed says whether git has the commit of st's current task in the
// run's history (from its rollback commit to HEAD): killed after that
// commit, before the state said so.
func committed(ctx context.Context, repo *gitops.Repo, st *runstate.State) (bool, error) {
	if st.Base == "" || st.Current == "" {
		return false, nil
	}
	head, err := repo.Head(ctx)
	if err != nil {
		return false, err
	}
	h, err := ReadHistory(ctx, repo, st.RunID, st.Current, st.Base, head.SHA)
	if err != nil {
		return false, err
	}
	_, ok := h.Commits[st.Current]
	return ok, nil
}
