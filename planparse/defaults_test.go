package planparse

import (
	"strings"
	"testing"
)

// TestConfigDefaultsAnswerStepless: a plan without front matter (a
// tasks.json) whose tasks have no steps is runnable when .planx.yaml names
// an agent or a manual executor, and the warning otherwise points there.
func TestConfigDefaultsAnswerStepless(t *testing.T) {
	src := `{"tasks": [{"id": 1, "title": "A", "status": "pending"}]}`
	warned := func(o Options) *Diagnostic {
		p, err := Parse("tasks.json", []byte(src), o)
		if err != nil {
			t.Fatal(err)
		}
		for i, d := range p.Diagnostics {
			if strings.Contains(d.Message, "no `run` step") {
				return &p.Diagnostics[i]
			}
		}
		return nil
	}
	d := warned(Options{})
	if d == nil {
		t.Fatal("no warning without an agent")
	}
	if strings.Contains(d.Hint, "front matter") || !strings.Contains(d.Hint, ".planx.yaml") {
		t.Errorf("hint %q", d.Hint)
	}
	for _, o := range []Options{{Agent: "claude"}, {Executor: "manual"}, {Executor: "agent"}} {
		if d := warned(o); d != nil {
			t.Errorf("%+v: warned %q", o, d.Message)
		}
	}
	if warned(Options{Executor: "shell"}) == nil {
		t.Error("executor shell answers nothing for a task without steps")
	}
}
