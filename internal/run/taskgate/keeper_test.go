package taskgate

import (
	"slices"
	"testing"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/run/runstate"
	wavepkg "github.com/planx-dev/planx/internal/run/wave"
)

// newKeeper is a keeper of the run st in repo with its own pool of slots,
// the seams a test needs and no more.
func newKeeper(repo *gitops.Repo, st *runstate.State) *Keeper {
	var pool *wavepkg.Pool
	return &Keeper{Repo: repo, State: st, Pool: func() *wavepkg.Pool {
		if pool == nil {
			pool = wavepkg.NewPool(repo)
		}
		return pool
	}}
}

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
