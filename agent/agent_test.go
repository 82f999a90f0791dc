package agent

import (
	"strings"
	"testing"

	"github.com/planx-dev/planx/planparse"
)

func TestResolvePresetsAndCustom(t *testing.T) {
	for _, name := range Presets() {
		c, err := Resolve(name, "do it")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if c.Name != name || len(c.Argv) < 2 || c.Argv[len(c.Argv)-1] != "do it" || c.Shell != "" {
			t.Fatalf("%s: %+v: want argv ending with the prompt", name, c)
		}
	}
	c, err := Resolve("  ./my-agent --fast ", "p")
	if err != nil || c.Name != "custom" || c.Shell != "./my-agent --fast" || c.Argv != nil {
		t.Fatalf("custom: %+v %v", c, err)
	}
	if _, err := Resolve("", "p"); err == nil || !strings.Contains(err.Error(), "--agent") {
		t.Fatalf("empty spec: %v", err)
	}
}

func TestPromptCarriesTaskContextAndRules(t *testing.T) {
	task := &planparse.Task{ID: "T002", Label: "1.2", Title: "Add the parser",
		Body:       "- [ ] 1.2 Add the parser\n  ```go\n  x := 1\n  ```\n",
		Files:      []planparse.File{{Path: "parse.go", Action: planparse.ActionCreate}},
		Acceptance: []string{"`go test ./...` passes"}}
	p := Prompt(task, Context{PlanPath: "plan.md", Goal: "A parser", Repo: "/r",
		Done:  []*planparse.Task{{ID: "T001", Title: "Scaffold"}},
		Gates: []string{"test: go test ./..."}, Attempt: 2, Feedback: "gate test failed\n```\nFAIL\n```"})
	for _, want := range []string{"# Task T002: Add the parser", `"1.2"`, "- create: parse.go",
		"`go test ./...` passes", "- T001 Scaffold", "- test: go test ./...", "Do not commit",
		"## Attempt 2", "gate test failed", "````\ngate test failed"} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
}
