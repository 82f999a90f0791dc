package executor

import (
	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/planparse"
)

// setup is what decides what a run executes, fixed when the run is
// prepared: the plan, the pinned configuration and gates, and the two
// flags (--agent, --gate) that override them. It answers how each task is
// executed and which agent runs, and judges the risk of all of it for the
// dry run and the approval gate.
type setup struct {
	plan      *planparse.Plan
	cfg       gates.Config
	gates     []gates.Gate
	agentFlag string   // --agent
	gateFlags []string // --gate, as given

	byID map[planparse.TaskID]*planparse.Task // the plan's tasks, indexed on first use
	// reached: the files the gates run beyond those they name, read on
	// first use (gatereach.go).
	reached gaterun.Reach
	// ignored lists the work tree's ignored entries, for the risk of
	// deleting them (nil: unknown).
	ignored func() []string
}

// executorFor picks how a task is executed: its own Executor field, else
// shell when it has steps, else the plan's or the config's default, else the
// agent when one is configured, else a person.
func (s *setup) executorFor(t *planparse.Task) string {
	if t.Executor != "" {
		return t.Executor
	}
	if len(t.Steps) > 0 {
		return "shell"
	}
	if t.GatesOnly() {
		// "Checkpoint - Ensure all tests pass": the gates are the answes.
		return "gates"
	}
	if d := firstNonEmpty(s.plan.Executor, s.cfg.Executor); d != "" {
		return d
	}
	if s.agentSpec() != "" {
		return "agent"
	}
	return "manual"
}

// agentSpec is the agent setting in force: flag, plan, config.
func (s *setup) agentSpec() string {
	return firstNonEmpty(s.agentFlag, s.plan.Agent, s.cfg.Agent)
}

// tickedByHand reports a task ticked done in the plan, or inside a group
// ticked done, without a task commit: a person says it is done, git does not.
func (s *setup) tickedByHand(t *planparse.Task) bool {
	for ; t != nil; t = s.task(t.Parent) {
		if t.Status == planparse.StatusDone {
			return true
		}
	}
	return false
}

// task returns the plan's task with the given ID, or nil, through an index
// built on first use (Plan.Task scans the list).
func (s *setup) task(id planparse.TaskID) *planparse.Task {
	if id == "" {
		return nil
	}
	if s.byID == nil {
		s.byID = make(map[planparse.TaskID]*planparse.Task, len(s.plan.Tasks))
		for _, t := range s.plan.Tasks {
			if _, dup := s.byID[t.ID]; !dup {
				s.byID[t.ID] = t
			}
		}
	}
	return s.byID[id]
}

// parallelSafe says whether a task may share a wave: marked parallel in
// the plan and run by its shell steps. Agent and manual tasks run alone in
// the user's work tree, as with --jobs 1.
func (s *setup) parallelSafe(t *planparse.Task) bool {
	return t.Parallel && s.executorFor(t) == "shell"
}

// waves groups the tasks to run for --jobs > 1.
func (s *setup) waves(tasks []*planparse.Task) [][]*planparse.Task {
	return planparse.Waves(tasks, s.parallelSafe)
}
