package execute

import (
	"strings"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/agent"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/planparse"
)

// Prompt is what an agent's prompt says of the run besides the task.
type Prompt struct {
	Plan     *planparse.Plan
	PlanPath string // the plan's path, repo-relative
	Root     string // the repository's work tree
	// Tasks are the execution log's: those done are the agent's context.
	Tasks []execlog.Task
	Gates []gates.Gate
	// Protected are the files the agent must leave alone, as the run's
	// protection rules name them.
	Protected []string
}

// Context is what the agent's prompt says besides task t (attempt; feedback
// is why the one before failed): the plan, the tasks done, the gates and
// checks that judge its work, the spec documents, the groups around it and
// the files it must leave alone.
func (p Prompt) Context(t *planparse.Task, attempt int, feedback string) agent.Context {
	c := agent.Context{PlanPath: p.PlanPath, Goal: p.Plan.Title, Attempt: attempt, Feedback: feedback, Repo: p.Root}
	for _, lt := range p.Tasks {
		if lt.Status == record.TaskDone {
			if d := p.Plan.Task(planparse.TaskID(lt.ID)); d != nil {
				c.Done = append(c.Done, d)
			}
		}
	}
	for _, g := range gates.Select(p.Gates, t.Gates, true) {
		c.Gates = append(c.Gates, g.Name+": "+g.Command)
	}
	c.Checks = gates.AcceptanceCommands(t)
	c.Spec = SpecContext(p.Root, p.PlanPath, p.Plan.Format, t)
	for g := p.Plan.Task(t.Parent); g != nil; g = p.Plan.Task(g.Parent) {
		c.Groups = append([]*planparse.Task{g}, c.Groups...)
	}
	// A phase groups its tasks too: its introduction is their context.
	for _, ph := range p.Plan.Phases {
		if ph.Title == t.Phase && ph.Intro != "" && strings.Count(ph.Intro, "\n") > 0 {
			c.Groups = append([]*planparse.Task{{Title: ph.Title, Body: ph.Intro}}, c.Groups...)
			break
		}
	}
	c.Protected = p.Protected
	return c
}
