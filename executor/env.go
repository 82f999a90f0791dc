package executor

import (
	"os"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/planparse"
)

// baseEnvNames and baseEnvPrefixes are gates.BaseEnvNames and
// gates.BaseEnvPrefixes: verify --rerun-gates runs gates with the same
// minimal environment.
func baseEnvNames() []string    { return gates.BaseEnvNames() }
func baseEnvPrefixes() []string { return gates.BaseEnvPrefixes() }

// gateEnv is the environment of gates (acceptance commands, fixers, the
// final and wave gates): the minimal environment and the names
// .planx.yaml passes under `env:`, nothing of planx's own (PLANX_*: see
// gates.WithoutPlanx).
func (r *runner) gateEnv() []string { return gates.MinimalEnv(os.Environ(), r.cfg.Env) }

// env is the minimal environment of steps and agents, plus the task's
// PLANX_* variables and extra names (an agent preset's keys).
func (r *runner) env(t *planparse.Task, extra ...string) []string {
	allowed := append(append(baseEnvNames(), r.cfg.Env...), extra...)
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if slices.Contains(allowed, k) || hasAnyPrefix(k, baseEnvPrefixes()) {
			env = append(env, kv)
		}
	}
	return append(env,
		"PLANX_TASK_ID="+string(t.ID),
		"PLANX_PLAN="+r.pf.Abs,
		"PLANX_RUN_ID="+r.st.RunID,
		"PLANX_REPO="+r.repo.Root,
	)
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
