package verify

import (
	"os"
	"path"
	"path/filepath"
	"slices"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/judge"
	"github.com/planx-dev/planx/internal/run/gaterun"
)

// Protected paths are the judge: the files that decide whether a task is
// done. Which paths the run protects is known here, from the plan, the
// configuration and the gates; Work.Judge fails or warns about a
// task's change to one.

// Rules are the run's protection rules.
type Rules struct {
	Plan  string // the plan's path, repo-relative, slash-separated
	Log   string // the execution log's path; "" for none
	Gates []gates.Gate
	// Protect and Unprotect are .planx.yaml's globs.
	Protect, Unprotect []string
	// Reached are the files the gates run beyond those they name.
	Reached gaterun.Reach
}

// Why says why path p is protected, "" when it is not. It is told
// whether the path existed before the task (a new test file is not a
// weakened one) by the caller.
func (r Rules) Why(p string) string {
	switch {
	case p == r.Plan:
		return "the plan"
	case p == gates.ConfigFile:
		return "the planx configuration"
	case r.Log != "" && (p == r.Log || Covers(path.Dir(r.Log), p)):
		return "the execution log"
	}
	if slices.ContainsFunc(r.Unprotect, func(g string) bool { return judge.MatchGlob(g, p) }) {
		return ""
	}
	if g := gateNaming(r.Gates, p); g != "" {
		return "named by gate " + g
	}
	if why := r.Reached[p]; why != "" {
		return why
	}
	if g := gaterun.GateReading(r.Gates, p); g != "" {
		return "read by gate " + g + "'s test runner"
	}
	switch {
	case path.Base(p) == ".gitignore":
		return "an ignore file"
	case slices.ContainsFunc(r.Protect, func(g string) bool { return judge.MatchGlob(g, p) }):
		return "protected in .planx.yaml"
	case slices.ContainsFunc(judge.DefaultTestGlobs(), func(g string) bool { return judge.MatchGlob(g, p) }):
		return "a test file"
	}
	return ""
}

// gateNaming returns the first gate whose command names p, "" for none.
func gateNaming(gs []gates.Gate, p string) string {
	for _, g := range gs {
		if slices.Contains(gaterun.GateScripts([]gates.Gate{g}), p) {
			return g.Name
		}
	}
	return ""
}

// Guarded are the files an agent's prompt tells it to leave alone: the
// plan, the configuration and the log's directory, and the gates' scripts,
// their runners' configuration and what they run that exist in the work
// tree at root.
func (r Rules) Guarded(root string) []string {
	g := []string{r.Plan, gates.ConfigFile, path.Dir(r.Log) + "/"}
	for _, p := range append(append(gaterun.GateScripts(r.Gates), gaterun.RunnerConfigFiles(r.Gates)...), r.Reached.Paths()...) {
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p))); err == nil && !slices.Contains(g, p) {
			g = append(g, p)
		}
	}
	return g
}
