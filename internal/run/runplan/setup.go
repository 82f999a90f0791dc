package runplan

import (
	"cmp"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
)

// Setup is what decides what a run executes, fixed when the run is
// prepared: the plan, the pinned configuration and gates, and the two
// flags (--agent, --gate) that override them. It answers how each task is
// executed and which agent runs, and judges the risk of all of it for the
// dry run and the approval gate.
type Setup struct {
	Plan      *planparse.Plan
	Config    gates.Config
	Gates     []gates.Gate
	AgentFlag string   // --agent
	GateFlags []string // --gate, as given
	// Repo is the work tree's repository (nil: none, a dry run outside
	// one): its ignored entries and tracked files judge the risk of a
	// step that deletes in it (lists.go).
	Repo *gitops.Repo
	lists

	byID map[planparse.TaskID]*planparse.Task // the plan's tasks, indexed on first use
}

// Executor picks how a task is executed: its own Executor field, else
// shell when it has steps, else the plan's or the config's default, else the
// agent when one is configured, else a person.
func (s *Setup) Executor(t *planparse.Task) planparse.Kind {
	if t.Executor != "" {
		return planparse.Kind(t.Executor)
	}
	if len(t.Steps) > 0 {
		return planparse.KindShell
	}
	if t.GatesOnly() {
		// "Checkpoint - Ensure all tests pass": the gates are the answer.
		return planparse.KindGates
	}
	if d := cmp.Or(s.Plan.Executor, s.Config.Executor); d != "" {
		return planparse.Kind(d)
	}
	if s.AgentSpec() != "" {
		return planparse.KindAgent
	}
	return planparse.KindManual
}

// AgentSpec is the agent setting in force: flag, plan, config.
func (s *Setup) AgentSpec() string {
	return cmp.Or(s.AgentFlag, s.Plan.Agent, s.Config.Agent)
}

// TickedByHand reports a task ticked done in the plan, or inside a group
// ticked done, without a task commit: a person says it is done, git does not.
func (s *Setup) TickedByHand(t *planparse.Task) bool {
	for ; t != nil; t = s.Task(t.Parent) {
		if t.Status == planparse.StatusDone {
			return true
		}
	}
	return false
}

// Task returns the plan's task with the given ID, or nil, through an index
// built on first use (Plan.Task scans the list).
func (s *Setup) Task(id planparse.TaskID) *planparse.Task {
	if id == "" {
		return nil
	}
	if s.byID == nil {
		s.byID = make(map[planparse.TaskID]*planparse.Task, len(s.Plan.Tasks))
		for _, t := range s.Plan.Tasks {
			if _, dup := s.byID[t.ID]; !dup {
				s.byID[t.ID] = t
			}
		}
	}
	return s.byID[id]
}

// ParallelSafe says whether a task may share a wave: marked parallel in
// the plan and run by its shell steps or an agent, each confined to its
// own slot. A manual task (a person works in the user's work tree) and a
// checkpoint (it runs every gate, the final ones too) run alone, as with
// --jobs 1.
func (s *Setup) ParallelSafe(t *planparse.Task) bool {
	k := s.Executor(t)
	return t.Parallel && (k == planparse.KindShell || k == planparse.KindAgent)
}

// Waves groups the tasks to run for --jobs > 1.
func (s *Setup) Waves(tasks []*planparse.Task) [][]*planparse.Task {
	return planparse.Waves(tasks, s.ParallelSafe)
}
