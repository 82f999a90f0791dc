package agent

import (
	"fmt"
	"strings"
)

// Command is how to start an agent for one prompt.
type Command struct {
	Name string // preset name, or "custom"
	// Argv is the command line with the prompt in it, for presets.
	Argv []string
	// Shell is a custom command, run with bash -c; the prompt goes to stdin.
	Shell string
	// Env lists extra variable names an agent needs from planx's environment
	// (its API keys), on top of the minimal environment steps get.
	Env []string
}

// preset builds a command line for a prompt. The flags are the ones each CLI
// documents for a non-interactive run that may edit files and must not wait
// for a person or commit by itself.
type preset struct {
	argv func(prompt string) []string
	env  []string
}

func presets() map[string]preset {
	return map[string]preset{
		// claude -p: print mode, one prompt, exits; acceptEdits lets it write files.
		"claude": {
			argv: func(p string) []string { return []string{"claude", "-p", "--permission-mode", "acceptEdits", p} },
			env:  []string{"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "CLAUDE_CONFIG_DIR"},
		},
		// codex exec: the non-interactive subcommand; workspace-write sandbox.
		"codex": {
			argv: func(p string) []string { return []string{"codex", "exec", "--sandbox", "workspace-write", p} },
			env:  []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "CODEX_HOME"},
		},
		// aider commits after every edit unless told not to; planx makes the commit.
		"aider": {
			argv: func(p string) []string {
				return []string{"aider", "--yes-always", "--no-auto-commits", "--no-dirty-commits", "--no-stream", "--message", p}
			},
			env: []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "AIDER_MODEL", "OPENROUTER_API_KEY"},
		},
		// gemini -p: non-interactive prompt; --yolo approves its tool calls.
		"gemini": {
			argv: func(p string) []string { return []string{"gemini", "--yolo", "-p", p} },
			env:  []string{"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_CLOUD_PROJECT"},
		},
		// opencode run: one message, non-interactive.
		"opencode": {
			argv: func(p string) []string { return []string{"opencode", "run", p} },
			env:  []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENCODE_CONFIG"},
		},
	}
}

// Presets lists the preset names.
func Presets() []string { return []string{"claude", "codex", "aider", "gemini", "opencode"} }

// Resolve turns an agent setting (a preset name or a shell command) and a
// prompt into the command to run.
func Resolve(spec, prompt string) (Command, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return Command{}, fmt.Errorf("no agent configured: set --agent, `agent:` in the plan's front matter or in .planx.yaml (presets: %s, or any command reading the prompt on stdin)", strings.Join(Presets(), ", "))
	}
	if p, ok := presets()[spec]; ok {
		return Command{Name: spec, Argv: p.argv(prompt), Env: p.env}, nil
	}
	return Command{Name: "custom", Shell: spec}, nil
}

// Describe says how an agent setting runs, for a review: the preset's name
// and command line with '<prompt>' (quoted, so it reads as shell) for the prompt, or "custom" and the
// command. It also lists the variables passed through to it.
func Describe(spec string) (name, line string, env []string) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return "", "", nil
	}
	c, err := Resolve(spec, "'<prompt>'")
	if err != nil {
		return "", "", nil
	}
	if c.Shell != "" {
		return c.Name, c.Shell, c.Env
	}
	return c.Name, strings.Join(c.Argv, " "), c.Env
}
