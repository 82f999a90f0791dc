package runplan

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/agent"
	"github.com/planx-dev/planx/internal/approval"
	"github.com/planx-dev/planx/internal/judge"
	"github.com/planx-dev/planx/internal/risk"
	"github.com/planx-dev/planx/planparse"
)

// Assess judges tasks, in the order they would run (the last one also gets
// the final gates).
func (s *Setup) Assess(ctx context.Context, tasks []*planparse.Task) []risk.Assessment {
	rp := s.riskRepo(ctx)
	out := make([]risk.Assessment, 0, len(tasks))
	for i, t := range tasks {
		out = append(out, rp.Assess(t, string(s.Executor(t)), s.commandsFor(t, i == len(tasks)-1)))
	}
	return out
}

// riskRepo is what the risk rating knows of the repository.
func (s *Setup) riskRepo(ctx context.Context) risk.Repo {
	rp := risk.Repo{}
	if s.Repo != nil {
		rp.Ignored = deletesUserData(s.ignored(ctx, s.Repo))
		rp.Tracked = func(p string) bool { return holdsAny(p, s.tracked(ctx, s.Repo)) }
		rp.Script = scriptIn(s.Repo.Root)
	}
	return rp
}

// maxScript bounds the size of a script the rating reads: a larger file
// is no script a step runs by hand, and is judged by its name.
const maxScript = 256 << 10

// scriptIn reads the repository's regular files under root for the risk
// rating, as the work tree holds them.
func scriptIn(root string) func(p string) (string, bool) {
	return func(p string) (string, bool) {
		full := filepath.Join(root, filepath.FromSlash(p))
		fi, err := os.Lstat(full)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxScript {
			return "", false
		}
		b, err := os.ReadFile(full)
		return string(b), err == nil
	}
}

// deletesUserData reports whether deleting the repository path p (a glob
// maybe) takes one of the ignored entries that are the user's own data:
// not a build output, cache or installed dependency, which a build makes
// again (aside.Keep keeps the same ones).
func deletesUserData(entries []string) func(p string) bool {
	var data []string
	for _, e := range entries {
		if !judge.BuildOutput(e) {
			data = append(data, strings.TrimSuffix(e, "/"))
		}
	}
	return func(p string) bool {
		for _, e := range data {
			if m, _ := doublestar.Match(p, e); m || strings.HasPrefix(p, e+"/") {
				return true // the entry, or inside it
			}
			if m, _ := doublestar.Match(p+"/**", e); m {
				return true // a directory that holds it
			}
		}
		return false
	}
}

// holdsAny reports whether deleting the repository path p (a glob maybe)
// takes one of files.
func holdsAny(p string, files []string) bool {
	p = strings.TrimSuffix(p, "/")
	for _, f := range files {
		if f == p || strings.HasPrefix(f, p+"/") {
			return true
		}
		if m, _ := doublestar.Match(p, f); m {
			return true
		}
		if m, _ := doublestar.Match(p+"/**", f); m {
			return true
		}
	}
	return false
}

// commandsFor lists what planx runs for t besides its steps: acceptance
// commands and gates with the task's blast radius substituted (a radius is
// inserted unquoted, so it is code too), and the agent for an agent task.
func (s *Setup) commandsFor(t *planparse.Task, last bool) []risk.Command {
	var out []risk.Command
	for _, c := range gates.AcceptanceCommands(t) {
		out = append(out, risk.Command{Kind: risk.KindAcceptance, Origin: "plan", Line: lineOf(t, c),
			Code: gates.Gate{Command: c}.Expand(t.BlastRadius)})
	}
	for _, g := range gates.Select(s.Gates, t.Gates, last) {
		out = append(out, risk.Command{Kind: risk.KindGate, Name: g.Name, Origin: s.gateOrigin(g.Name),
			Code: g.Expand(t.BlastRadius)})
	}
	if s.Executor(t) == planparse.KindAgent {
		if name, line, _ := agent.Describe(s.AgentSpec()); line != "" {
			out = append(out, risk.Command{Kind: risk.KindAgent, Name: name, Origin: s.agentOrigin(), Code: line})
		}
		// The review gate's reviewer, after the gates.
		if name, line, _ := agent.Describe(s.Config.Review.Agent); line != "" {
			out = append(out, risk.Command{Kind: risk.KindAgent, Name: "review " + name, Origin: gates.ConfigFile, Code: line})
		}
		// Run in the gates' checkout when the task changes a manifest.
		if c := s.Config.WorktreeSetup; c != "" {
			out = append(out, risk.Command{Kind: risk.KindGate, Name: "worktree_setup", Origin: gates.ConfigFile, Code: c})
		}
	}
	return out
}

// lineOf is the plan line where the acceptance command c is written in t.
func lineOf(t *planparse.Task, c string) int {
	if i := strings.Index(t.Body, c); i >= 0 && t.Line > 0 {
		return t.Line + strings.Count(t.Body[:i], "\n")
	}
	return t.Line
}

func (s *Setup) gateOrigin(name string) string {
	for _, f := range s.GateFlags {
		if g, err := gates.ParseFlag(f); err == nil && g.Name == name {
			return "--gate"
		}
	}
	for _, g := range s.Plan.Gates {
		if g.Name == name {
			return "front matter"
		}
	}
	return gates.ConfigFile
}

func (s *Setup) agentOrigin() string {
	switch {
	case s.AgentFlag != "":
		return "--agent"
	case s.Plan.Agent != "":
		return "front matter"
	}
	return gates.ConfigFile
}

// Subject is what an approval of the plan binds: its text, and the
// settings from outside the text that decide what runs. Command-line flags
// (--gate, --agent) are the runner's own choice, made on every run, and are
// not part of it; .planx.yaml is, because it can change without the plan
// changing.
func (s *Setup) Subject() approval.Subject {
	var lines []string
	for _, g := range s.Config.Gates {
		line := fmt.Sprintf("gate %s when=%s timeout=%s radius=%s: %s", strconv.Quote(g.Name),
			cmp.Or(string(g.When), "each"), g.Timeout, strconv.Quote(g.DefaultRadius), strconv.Quote(g.Command))
		if !g.Report.IsZero() { // an approval given before report: existed stays valid
			line += " report=" + strconv.Quote(g.Report.String())
		}
		lines = append(lines, line)
	}
	spec := cmp.Or(s.Plan.Agent, s.Config.Agent)
	name, line, env := agent.Describe(spec)
	if line != "" {
		lines = append(lines, fmt.Sprintf("agent %s: %s", name, strconv.Quote(line)))
	}
	if s.Config.Executor != "" {
		lines = append(lines, "executor: "+strconv.Quote(s.Config.Executor))
	}
	if s.Config.WorktreeSetup != "" {
		lines = append(lines, "worktree_setup: "+strconv.Quote(s.Config.WorktreeSetup))
	}
	// Written only when set, so that approvals given before these keys
	// existed stay valid.
	if rv := s.Config.Review; rv.On() {
		rname, rline, renv := agent.Describe(rv.Agent)
		lines = append(lines, fmt.Sprintf("review %s model=%s: %s", rname, strconv.Quote(rv.Model), strconv.Quote(rline)))
		env = append(env, renv...)
	}
	if s.Config.HiddenTests != "" {
		lines = append(lines, fmt.Sprintf("hidden_tests: %s ref=%s", strconv.Quote(s.Config.HiddenTests), strconv.Quote(s.Config.HiddenRef)))
	}
	names := slices.Sorted(slices.Values(append(slices.Clone(s.Config.Env), env...)))
	if names = slices.Compact(names); len(names) > 0 {
		lines = append(lines, "env: "+strings.Join(names, " "))
	}
	return approval.Subject{Src: s.Plan.Source, Plan: s.Plan, Config: strings.Join(lines, "\n")}
}
