package taskgate

import (
	"slices"
	"testing"
	"time"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/run/runstate"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
	"github.com/planx-dev/planx/planparse"
)

// newKeeper is a keeper of the run st in repo with its own pool of slots
// and a desk that keeps what it is told.
func newKeeper(repo *gitops.Repo, st *runstate.State) *Keeper {
	return &Keeper{Repo: repo, State: st, Pool: wavepkg.NewPool(repo), Desk: &book{}}
}

// book is a hall.Desk that keeps the issues it is told and counts saves.
type book struct {
	issues []string
	saved  int
}

func (b *book) Issue(id planparse.TaskID, msg, _ string) {
	b.issues = append(b.issues, string(id)+": "+msg)
}
func (b *book) Say(planparse.TaskID, string) {}
func (b *book) Ask(string) bool              { return false }
func (b *book) Save() error                  { b.saved++; return nil }
func (b *book) Now() time.Time               { return time.Now() }

func TestBaselineGates(t *testing.T) {
	t.Parallel()
	all := []gates.Gate{
		{Name: "fmt", Command: "gofmt -w .", Fix: true},
		{Name: "test", Command: "go test ./..."},
		{Name: "e2e", Command: "make e2e", When: gates.WhenFinal},
	}
	var names []string
	for _, g := range baselineGates(all) {
		names = append(names, g.Name)
	}
	if !slices.Equal(names, []string{"test"}) {
		t.Errorf("baselineGates = %q, want [test]", names)
	}
}
