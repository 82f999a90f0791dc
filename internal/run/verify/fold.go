package verify

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/planparse"
)

// Folded is what commits an executor made on its own became: staged
// changes of the task, whose commit body keeps their messages.
type Folded struct {
	Tip      gitops.SHA // the executor's last commit, to keep reachable; "" when it made none
	Messages []string   // the commits' messages with their authors, oldest first
	Authors  []string   // who made them, in that order, each once
}

// Fold turns the commits between expect (where planx left HEAD) and head
// (HEAD now, on the run's branch) into staged changes of task id. A
// history in which expect is no longer below HEAD was rewritten: planx
// will not build on it. A shell task's steps (shell) do not commit by
// themselves: a person did, in another terminal, and their commit is
// theirs, never folded into a task's.
func Fold(ctx context.Context, repo *gitops.Repo, branch string, id planparse.TaskID, expect, head gitops.SHA, shell bool) (Folded, error) {
	if head == expect {
		return Folded{}, nil
	}
	ok, err := repo.History().IsAncestor(ctx, expect, head)
	if err != nil {
		return Folded{}, fmt.Errorf("check %s is below HEAD: %w", expect.Short(), err)
	}
	if !ok {
		return Folded{}, &outcome.Failure{What: fmt.Sprintf("the task rewrote history: %s is no longer below HEAD (%s); planx will not build on it", expect.Short(), head.Short())}
	}
	own, err := repo.History().Log(ctx, head, expect, 0)
	if err != nil {
		return Folded{}, err
	}
	if shell {
		return Folded{}, fmt.Errorf("%w: %d commit(s) were made on %s while %s ran (newest: %s %s); planx does not fold a commit it did not ask for and committed nothing: move them away (e.g. git branch keep %s && git reset --soft %s), then `planx resume`, or `planx abort`",
			gitops.ErrRepoState, len(own), branch, id, own[0].SHA.Short(), own[0].Subject, own[0].SHA.Short(), expect.Short())
	}
	if err := repo.ResetSoft(ctx, expect); err != nil {
		return Folded{}, err
	}
	f := Folded{Tip: head}
	for i := len(own) - 1; i >= 0; i-- {
		f.Messages = append(f.Messages, strings.TrimSpace(own[i].Subject+"\n\n"+own[i].Body+"\n\n(author: "+own[i].Author+")"))
		if !slices.Contains(f.Authors, own[i].Author) {
			f.Authors = append(f.Authors, own[i].Author)
		}
	}
	return f, nil
}
