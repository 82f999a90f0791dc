package execute

import (
	"os"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/planparse"
)

// GateEnv is the environment of gates (acceptance commands, fixers, the
// final and wave gates): the minimal environment and the names
// .planx.yaml passes under `env:` (passed), nothing of planx's own
// (PLANX_*: see gates.WithoutPlanx).
func GateEnv(passed []string) []string { return gates.MinimalEnv(os.Environ(), passed) }

// env is the minimal environment of steps and agents, plus the task's
// PLANX_* variables and extra names (an agent preset's keys). verify
// --rerun-gates runs gates with the same minimal names
// (gates.BaseEnvNames, gates.BaseEnvPrefixes).
func (o Options) env(id planparse.TaskID, extra ...string) []string {
	allowed := append(append(gates.BaseEnvNames(), o.Passed...), extra...)
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if slices.Contains(allowed, k) || hasAnyPrefix(k, gates.BaseEnvPrefixes()) {
			env = append(env, kv)
		}
	}
	env = append(env,
		"PLANX_TASK_ID="+string(id),
		"PLANX_PLAN="+o.Plan,
		runMark(o.RunID),
		"PLANX_REPO="+o.Dir,
	)
	if o.Slot {
		env = append(env, "PLANX_WORKTREE="+o.Dir)
	}
	return env
}

// runMark is the entry of the environment of a run's steps and agents that
// CleanRun finds them by once the planx that started them is gone.
func runMark(runID string) string { return "PLANX_RUN_ID=" + runID }

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
