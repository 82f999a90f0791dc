package risk

import (
	"fmt"

	"github.com/planx-dev/planx/planparse"
)

// Kinds of Command.
const (
	KindGate       = "gate"
	KindAcceptance = "acceptance"
	KindAgent      = "agent"
)

// Command is a shell command planx runs for a task besides its steps: a
// gate, an acceptance criterion written as a command, the agent. Each is as
// much the plan author's (or the repository's) code as a step, so it is
// judged by the same rules.
type Command struct {
	Kind   string // KindGate, KindAcceptance or KindAgent
	Name   string // the gate's name; the agent preset, or "custom"
	Origin string // where it is set: ".planx.yaml", "front matter", "--gate", "--agent", "plan"
	Line   int    // plan line when the command is written in the plan body; else 0
	// Code is the shell text as it will run: a gate's command with the
	// task's blast radius substituted, the agent's command line.
	Code string
}

// Label names the command for a finding: "gate lint (.planx.yaml)".
func (c Command) Label() string {
	s := c.Kind
	if c.Name != "" {
		s += " " + c.Name
	}
	if c.Origin != "" {
		s += " (" + c.Origin + ")"
	}
	return s
}

// Assessment is a task's risk over everything planx runs for it.
type Assessment struct {
	Task     *planparse.Task
	Executor string    // shell, agent or manual
	Commands []Command // what runs besides the steps
	Level    Level
	Findings []Finding // steps' findings have no Source; the others name their command
}

// Assess classifies a task's steps and the commands planx runs with them.
func Assess(t *planparse.Task, executor string, cmds []Command) Assessment {
	return Repo{}.Assess(t, executor, cmds)
}

// Assess is the package's Assess, knowing the repository.
func (rp Repo) Assess(t *planparse.Task, executor string, cmds []Command) Assessment {
	_, all := rp.Task(t)
	for _, c := range cmds {
		cr := rp
		if c.Kind == KindAgent {
			// An agent's command line runs the agent, in its own space: a
			// script it names is the agent's program, not the plan's steps.
			cr.Script = nil
		}
		_, fs := cr.classify(c.Code, c.Kind == KindGate)
		for _, f := range fs {
			f.Source, f.Line = c.Label(), c.Line
			all = append(all, f)
		}
	}
	l, fs := finish(all)
	return Assessment{Task: t, Executor: executor, Commands: cmds, Level: l, Findings: fs}
}

// Describe is one line per command with its level, for a dry run.
func (c Command) Describe() string { return Repo{}.Describe(c) }

// Describe is the Command's Describe, knowing the repository.
func (rp Repo) Describe(c Command) string {
	l, _ := rp.classify(c.Code, c.Kind == KindGate)
	s := fmt.Sprintf("%s [%s]", c.Label(), l)
	if c.Line > 0 {
		s += fmt.Sprintf(" plan line %d", c.Line)
	}
	return s
}
