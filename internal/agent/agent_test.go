package agent

import (
	"strings"
	"testing"

	"github.com/planx-dev/planx/planparse"
)

func TestResolvePresetsAndCustom(t *testing.T) {
	in := Input{Prompt: "do it", PromptFile: "/r/.git/planx/runs/x/T001-prompt-1.md", Files: []string{"a.go", "b.go"}, StateDir: "/s"}
	want := map[string]string{
		"claude":   "claude -p --permission-mode acceptEdits --allowedTools Bash,Read,Edit,Write,Glob,Grep --output-format stream-json --verbose",
		"codex":    "codex exec --json --sandbox danger-full-access --skip-git-repo-check -",
		"aider":    "aider --yes-always --no-auto-commits --no-dirty-commits --no-gitignore --no-stream --no-pretty --no-check-update --no-show-release-notes --map-tokens 0 --chat-history-file /s/aider.chat.history.md --input-history-file /s/aider.input.history --message-file /r/.git/planx/runs/x/T001-prompt-1.md -- a.go b.go",
		"gemini":   "gemini --approval-mode yolo --skip-trust --output-format stream-json -p Do the task described above.",
		"opencode": "opencode run --auto --format json Do the task described in the input.",
		"qwen":     "qwen --yolo --output-format stream-json -p Do the task described above.",
	}
	for _, name := range Presets() {
		c, err := Resolve(name, in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := strings.Join(c.Argv, " "); got != want[name] || c.Shell != "" || c.Name != name {
			t.Errorf("%s: argv %q, want %q", name, got, want[name])
		}
		for _, a := range c.Argv {
			if strings.Contains(a, "do it") {
				t.Errorf("%s: the prompt is on the command line: %q", name, c.Argv)
			}
		}
		if wantStdin := name != "aider"; (c.Stdin == "do it") != wantStdin {
			t.Errorf("%s: stdin %q", name, c.Stdin)
		}
		if c.Transcript == NoTranscript {
			t.Errorf("%s: transcript %q", name, c.Transcript)
		}
		if Tool(name) != name {
			t.Errorf("Tool(%s) = %q", name, Tool(name))
		}
	}
	c, err := Resolve("  ./my-agent --fast ", in)
	if err != nil || c.Name != "custom" || c.Shell != "./my-agent --fast" || c.Argv != nil || c.Stdin != "do it" || Tool("./my-agent") != "" {
		t.Fatalf("custom: %+v %v", c, err)
	}
	if _, err := Resolve("", in); err == nil || !strings.Contains(err.Error(), "--agent") {
		t.Fatalf("empty spec: %v", err)
	}
	if name, line, env := Describe("gemini"); name != "gemini" || line != "gemini --approval-mode yolo --skip-trust --output-format stream-json -p 'Do the task described above.'" || len(env) == 0 {
		t.Errorf("Describe(gemini) = %q %q %v", name, line, env)
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

// TestMeterAnswer: the model's last message is the answer, whatever the
// transcript says after it (claude's result event, its usage line).
func TestMeterAnswer(t *testing.T) {
	for f, lines := range map[Transcript][]string{
		ClaudeStream: {`{"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"looking"}]}}`,
			`{"type":"assistant","message":{"id":"m2","content":[{"type":"text","text":"fine\nVERDICT: pass"}]}}`,
			`{"type":"result","subtype":"success","usage":{"input_tokens":3,"output_tokens":1},"result":"fine\nVERDICT: pass"}`},
		CodexJSON: {`{"type":"item.completed","item":{"type":"agent_message","text":"fine\nVERDICT: pass"}}`,
			`{"type":"turn.completed","usage":{"input_tokens":3,"output_tokens":1}}`},
		OpencodeJSON: {`{"type":"text","part":{"text":"fine\nVERDICT: pass"}}`},
	} {
		m := NewMeter(f)
		_, _ = m.Write([]byte(strings.Join(lines, "\n") + "\n"))
		m.Close()
		if got := m.Answer(); got != "fine\nVERDICT: pass" {
			t.Errorf("%s: Answer() = %q", f, got)
		}
	}
}
