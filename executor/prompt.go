package executor

import (
	"path"
	"slices"
	"strings"

	"github.com/planx-dev/planx/agent"
	"github.com/planx-dev/planx/execute"
	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/record"
)

// agentContext is what the agent's prompt says besides the task: the plan,
// the tasks done, the gates and checks that judge its work, the spec
// documents, the groups around it and the files it must leave alone.
func (r *runner) agentContext(t *planparse.Task, attempt int, feedback string) agent.Context {
	c := agent.Context{PlanPath: r.planRel, Goal: r.Plan.Title, Attempt: attempt, Feedback: feedback, Repo: r.repo.Root}
	for _, lt := range r.log.Tasks {
		if lt.Status == record.TaskDone {
			if d := r.Plan.Task(planparse.TaskID(lt.ID)); d != nil {
				c.Done = append(c.Done, d)
			}
		}
	}
	for _, g := range gates.Select(r.Gates, t.Gates, true) {
		c.Gates = append(c.Gates, g.Name+": "+g.Command)
	}
	c.Checks = gates.AcceptanceCommands(t)
	c.Spec = execute.SpecContext(r.repo.Root, r.planRel, r.Plan.Format, t)
	for p := r.Plan.Task(t.Parent); p != nil; p = r.Plan.Task(p.Parent) {
		c.Groups = append([]*planparse.Task{p}, c.Groups...)
	}
	// A phase groups its tasks too: its introduction is their context.
	for _, ph := range r.Plan.Phases {
		if ph.Title == t.Phase && ph.Intro != "" && strings.Count(ph.Intro, "\n") > 0 {
			c.Groups = append([]*planparse.Task{{Title: ph.Title, Body: ph.Intro}}, c.Groups...)
			break
		}
	}
	c.Protected = []string{r.planRel, gates.ConfigFile, path.Dir(r.log.Path) + "/"}
	for _, p := range append(append(gaterun.GateScripts(r.Gates), gaterun.RunnerConfigFiles(r.Gates)...), r.keeper().Reached().Paths()...) {
		if fileExists(relJoin(r.repo.Root, p)) && !slices.Contains(c.Protected, p) {
			c.Protected = append(c.Protected, p)
		}
	}
	return c
}
