package land

import (
	"context"
	"fmt"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/internal/run/verify"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// landed reports whether HEAD is, despite an error from git, the task's
// commit: on the run's branch, right above planx's last commit, with this
// run's and this task's trailers. It reads git afresh, never the (possibly
// cancelled) context of the commit.
func (c *Committer) landed(t *planparse.Task) (gitops.SHA, bool) {
	ctx := context.Background()
	head, err := c.Repo.Head(ctx)
	if err != nil || head.Branch != c.State.Branch || head.SHA == "" || head.SHA == c.Expect {
		return "", false
	}
	cs, err := c.Repo.History().Log(ctx, head.SHA, "", 1)
	if err != nil || len(cs) != 1 || len(cs[0].Parents) == 0 || cs[0].Parents[0] != c.Expect {
		return "", false
	}
	if ts := record.ParseTrailers(cs[0].Message); record.ValueOf(ts, record.TrailerRun) != c.State.RunID || record.ValueOf(ts, record.TrailerTask) != string(t.ID) {
		return "", false
	}
	return cs[0].SHA, true
}

// HeadIsTaskCommit reports whether head is a task commit of the run runID.
func HeadIsTaskCommit(ctx context.Context, repo *gitops.Repo, head gitops.SHA, runID string) bool {
	if head == "" {
		return false
	}
	cs, err := repo.History().Log(ctx, head, "", 1)
	if err != nil || len(cs) != 1 {
		return false
	}
	ts := record.ParseTrailers(cs[0].Message)
	return record.ValueOf(ts, record.TrailerRun) == runID && record.ValueOf(ts, record.TrailerTask) != ""
}

// onRunBranch checks, right before a task commit, that HEAD is still the
// run's branch at planx's last commit: a person who switched branch (or
// committed) while a step or gate ran gets nothing committed anywhere, and
// is told how to go on.
func (c *Committer) onRunBranch(t *planparse.Task) error {
	head, err := c.Repo.HeadNow()
	if err != nil {
		return err
	}
	if head.Branch != c.State.Branch || head.Detached != (c.State.Branch == "") {
		return fmt.Errorf("%w: HEAD moved from branch %q to %q while %s ran; planx commits only onto the run's branch and committed nothing: %s",
			gitops.ErrRepoState, c.State.Branch, verify.HeadName(head), t.ID, verify.SwitchBack(c.State.Branch, "`planx resume`"))
	}
	if head.SHA != c.Expect {
		return fmt.Errorf("%w: branch %s moved from %s to %s while %s ran (a commit planx did not make); planx committed nothing: look at it (git log %s..%s), then `planx resume` or `planx abort`",
			gitops.ErrRepoState, c.State.Branch, c.Expect.Short(), head.SHA.Short(), t.ID, c.Expect.Short(), head.SHA.Short())
	}
	return nil
}

// Unland takes back the landing of a wave that a stop cut between the
// work tree's update and the branch's move (wave.Unland), before anything
// reads the work tree: the run then goes on, or is aborted, as after a
// stop before that landing began. It says what it put back.
func Unland(ctx context.Context, repo *gitops.Repo, out *progress.Progress) error {
	st, err := runstate.Load(repo)
	if err != nil || st == nil {
		return err
	}
	if head, err := repo.Head(ctx); err != nil || head.Branch != st.Branch {
		// On another branch the landing's files are not the branch's to
		// take back: the command says to switch back first.
		return err
	}
	back, err := wavepkg.Unland(ctx, repo, st.RunID)
	if err != nil {
		return err
	}
	if len(back) > 0 {
		out.Println("planx: wave %d's landing was cut before the branch moved: %s it had written put back as the branch has them; the wave lands again",
			st.WaveNumber, textsafe.Count(len(back), "file"))
	}
	return nil
}
