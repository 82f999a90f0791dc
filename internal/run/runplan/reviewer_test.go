package runplan

import (
	"errors"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/risk"
	"github.com/planx-dev/planx/planparse"
)

// The reviewer is an agent planx runs: the risk of an agent task lists it,
// an approval binds it, and it may not be the tasks' own agent.
func TestReviewer(t *testing.T) {
	task := &planparse.Task{ID: "T001", Title: "Sub"}
	plan := &planparse.Plan{Tasks: []*planparse.Task{task}}
	s := &Setup{Plan: plan, Config: gates.Config{Agent: "claude", Review: gates.Review{Agent: "codex", File: "/r/.planx.yaml", Line: 3}}}
	var found bool
	for _, c := range s.commandsFor(task, false) {
		found = found || c.Kind == risk.KindAgent && c.Name == "review codex" && strings.HasPrefix(c.Code, "codex exec")
	}
	if !found {
		t.Errorf("the reviewer is not among the commands of an agent task: %+v", s.commandsFor(task, false))
	}
	if sub := s.Subject(); !strings.Contains(sub.Config, "review codex") {
		t.Errorf("an approval does not bind the reviewer:\n%s", sub.Config)
	}
	hidden := (&Setup{Plan: plan, Config: gates.Config{Agent: "claude", HiddenTests: "/h.git", HiddenRef: "tests"}}).Subject()
	if !strings.Contains(hidden.Config, `hidden_tests: "/h.git" ref="tests"`) {
		t.Errorf("an approval does not bind the hidden tests:\n%s", hidden.Config)
	}
	without := (&Setup{Plan: plan, Config: gates.Config{Agent: "claude"}}).Subject()
	if strings.Contains(without.Config, "review") || strings.Contains(without.Config, "hidden_tests") {
		t.Errorf("a plan without review: binds one:\n%s", without.Config)
	}
	if err := s.RefuseSameReviewer(); err != nil {
		t.Errorf("codex reviewing claude refused: %v", err)
	}
	s.Config.Review.Agent = "claude"
	err := s.RefuseSameReviewer()
	var ce *gates.ConfigError
	if !errors.Is(err, planparse.ErrInvalid) || !errors.As(err, &ce) || ce.Line != 3 {
		t.Errorf("claude reviewing claude: %v", err)
	}
	s.Config.Review.Model = "another"
	if err := s.RefuseSameReviewer(); err != nil {
		t.Errorf("claude with another model refused: %v", err)
	}
}
