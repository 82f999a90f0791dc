package execute

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/planx-dev/planx/internal/agent"
	"mvdan.cc/sh/v3/syntax"
)

// ErrAgentMissing reports agent tasks with no agent configured, or an
// agent whose program is not installed, or a confinement that cannot be
// had; found before the rollback commit.
var ErrAgentMissing = errors.New("agent not available")

// CheckAgent refuses, before the rollback commit, a run whose agent tasks
// could not start: no agent configured (spec: the setting in force), its
// program not installed, or the jail impossible. Found later, it would
// fail the first agent task after the rollback commit and leave a run to
// abort. Agents start at the repository's root.
func CheckAgent(spec, root string, jail *Jail) error {
	cmd, err := agent.Resolve(spec, agent.Input{})
	if err != nil {
		return fmt.Errorf("%w: %v", ErrAgentMissing, err)
	}
	prog := agentProgram(cmd)
	if prog == "" {
		return jail.Probe() // a shell construct planx cannot resolve without running it
	}
	if strings.Contains(prog, "/") && !filepath.IsAbs(prog) {
		prog = filepath.Join(root, prog)
	}
	if _, err := exec.LookPath(prog); err != nil {
		return fmt.Errorf("%w: agent %q: %s is not installed or not executable (%v); install it, or choose another agent with --agent, `agent:` in the plan or in .planx.yaml",
			ErrAgentMissing, spec, agentProgram(cmd), err)
	}
	return jail.Probe()
}

// agentProgram is the program an agent command starts: a preset's argv[0],
// or the first simple command of a custom shell command when its name is a
// plain word and not a shell builtin; "" when it cannot be told statically.
func agentProgram(cmd agent.Command) string {
	if cmd.Shell == "" {
		return cmd.Argv[0]
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(cmd.Shell), "")
	if err != nil {
		return ""
	}
	name := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && name == "" && len(c.Args) > 0 {
			name = c.Args[0].Lit()
			if name == "" {
				name = "-" // not a plain word: give up
			}
		}
		return name == ""
	})
	if name == "-" || isShellBuiltin(name) {
		return ""
	}
	return name
}

// isShellBuiltin: bash builtins and keywords an agent command may start
// with; they are never found in PATH.
func isShellBuiltin(name string) bool {
	switch name {
	case ".", ":", "[", "builtin", "cd", "command", "declare", "echo", "eval", "exec", "export",
		"false", "local", "printf", "read", "set", "source", "test", "time", "true", "type",
		"ulimit", "umask", "unset", "wait":
		return true
	}
	return false
}
