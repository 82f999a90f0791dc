package gaterun

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/space"
	"github.com/planx-dev/planx/planparse"
)

// Gates that run anywhere but the user's work tree — a clean checkout of
// an agent's task, the base, the judge's runs apart and the counterfactual,
// a wave's slot — run in a judge's space where the platform has one: the
// checkout is seen at a place of its own (judgeAt), written through, with
// nothing above it, so that no tool that searches parent directories
// (go.work, conftest.py, node_modules, a runner's configuration) finds
// what lies in the user's work tree around the checkout; everything else
// the gate writes — the user's ignored data through the checkout's links,
// HOME, caches, /tmp — is copy-on-write and dropped when it ends, and no
// process it started outlives it.

// Spaces opens the judge's spaces of a run; a nil *Spaces opens none.
type Spaces struct {
	runID string
	probe *space.Prober // the run's one probe (why the platform has none)
	said  sync.Once
}

// NewSpaces is the judge's spaces of run runID, asking probe (shared with
// the run's agents: execute.Jail.SpaceProbe) whether the platform has any;
// nil probes on its own.
func NewSpaces(runID string, probe *space.Prober) *Spaces {
	if probe == nil {
		probe = space.NewProber("")
	}
	return &Spaces{runID: runID, probe: probe}
}

// judgeAt is where a checkout is seen in the judge's space: a directory
// of its own at the root, named as the user's work tree home is, so that
// a tool that names the project by its directory names it the same.
func judgeAt(home string) string {
	name := filepath.Base(home)
	if name == "." || name == "/" || name == "" || strings.ContainsAny(name, "\n\r") {
		name = "repo"
	}
	return "/planx-judge/" + name
}

// open opens a space in which gates see dir at judgeAt(home), with the
// directories reports written through, or returns nil where the run has
// none (said once on out). close removes it.
func (s *Spaces) open(dir, home string, id planparse.TaskID, out *progress.Progress, reports []string) (sp *space.Space, close func(), err error) {
	if s == nil {
		return nil, func() {}, nil
	}
	if perr := s.probe.Err(); perr != nil {
		s.said.Do(func() {
			out.Println("planx: the judge's runs have no space of their own here (%v): they run in their checkouts as they are", perr)
		})
		return nil, func() {}, nil
	}
	parent, err := space.StateParent(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("the judge's space: %w", err)
	}
	state, err := os.MkdirTemp(parent, s.runID+"-judge-"+string(id)+"-")
	if err != nil {
		return nil, nil, fmt.Errorf("the judge's space: %w", err)
	}
	sp, err = space.Open(space.Options{Root: dir, Dir: state, At: judgeAt(home), Persist: reports})
	if err != nil {
		_ = os.RemoveAll(state)
		return nil, nil, fmt.Errorf("the judge's space: %w", err)
	}
	return sp, func() {
		_ = sp.Close()
		_ = os.RemoveAll(state)
	}, nil
}
