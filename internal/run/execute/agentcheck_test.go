package execute

import (
	"errors"
	"testing"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/agent"
)

// The program an agent command starts is told statically when it can be:
// a preset's argv[0], a custom command's first plain word unless it is a
// shell builtin.
func TestAgentProgram(t *testing.T) {
	for shell, want := range map[string]string{
		"my-agent --yes":              "my-agent",
		"FOO=1 ./bin/agent < prompt":  "./bin/agent",
		"cd sub && agent":             "",
		"$AGENT run":                  "",
		"echo hi | claude -p":         "",
		"exec aider --message-file x": "",
	} {
		if got := agentProgram(agent.Command{Shell: shell}); got != want {
			t.Errorf("%q: %q, want %q", shell, got, want)
		}
	}
	if got := agentProgram(agent.Command{Argv: []string{"claude", "-p"}}); got != "claude" {
		t.Errorf("preset: %q", got)
	}
}

// A run whose agent program is not installed is refused with
// ErrAgentMissing before anything starts; one that is goes on to the jail.
func TestCheckAgent(t *testing.T) {
	jail := NewJail(gates.Sandbox{Mode: "off"}, nil, nil)
	if err := CheckAgent("planx-no-such-agent --go", t.TempDir(), jail); !errors.Is(err, ErrAgentMissing) {
		t.Fatalf("missing program: %v", err)
	}
	if err := CheckAgent("", t.TempDir(), jail); !errors.Is(err, ErrAgentMissing) {
		t.Fatalf("no agent: %v", err)
	}
	if err := CheckAgent("sh -c true", t.TempDir(), jail); err != nil {
		t.Fatalf("installed program: %v", err)
	}
}
