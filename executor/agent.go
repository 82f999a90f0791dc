package executor

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/planx-dev/planx/agent"
	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/fsutil"
	"github.com/planx-dev/planx/internal/proc"
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/record"
	"github.com/planx-dev/planx/runstate"
)

// defaultAgentTimeout bounds an agent when no task timeout is set: agents
// hang on prompts, rate limits and full context windows.
const defaultAgentTimeout = 30 * time.Minute

// runAgent runs the agent once on the task. Its exit code says little (0
// also covers max-turns and refusals): the verification after it decides.
func (r *runner) runAgent(ctx context.Context, t *planparse.Task, lt *execlog.Task, attempt int, feedback string) error {
	dir := runstate.RunDir(r.repo, r.st.RunID)
	// The reason file is in the state directory: the one place under the
	// git directory a confined agent may write.
	stateDir := filepath.Join(dir, "agent")
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return err
	}
	reasonPath := filepath.Join(stateDir, fmt.Sprintf("%s-reason-%d.txt", t.ID, attempt))
	r.reach(ctx) // the prompt names the scripts the gates run too
	c := r.agentContext(t, attempt, feedback)
	c.ReasonFile = reasonPath
	prompt := agent.Prompt(t, c)
	promptPath := filepath.Join(dir, fmt.Sprintf("%s-prompt-%d.md", t.ID, attempt))
	if err := fsutil.WriteAtomic(promptPath, []byte(prompt), 0o600); err != nil {
		return err
	}
	cmd, err := agent.Resolve(r.agentSpec(), agent.Input{Prompt: prompt, PromptFile: promptPath,
		Files: declaredFiles(t), StateDir: stateDir})
	if err != nil {
		return &outcome.Failure{What: err.Error()}
	}
	timeout := r.o.TaskTimeout
	if timeout == 0 {
		timeout = defaultAgentTimeout
	}
	tmp, removeTmp, err := taskTemp(t)
	if err != nil {
		return err
	}
	defer removeTmp()
	wrap, level, env, err := r.agentJail(t, tmp, stateDir, cmd)
	if err != nil {
		return err
	}
	lt.Sandbox = string(level)
	live, flush := r.out.Live(t.ID)
	defer flush()
	spec := proc.Spec{
		Name: fmt.Sprintf("%s agent", t.ID),
		Dir:  r.repo.Root,
		Env: append(append(r.env(t, cmd.Env...), "PLANX_PROMPT_FILE="+promptPath,
			"PLANX_STATE_DIR="+stateDir, "PLANX_REASON_FILE="+reasonPath), env...),
		Timeout:    timeout,
		OutputPath: filepath.Join(dir, fmt.Sprintf("%s-agent-%d.log", t.ID, attempt)),
		Live:       live,
		Started:    r.pids().childStarted,
		Wrap:       wrap,
	}
	// The prompt never goes on the command line: a long task would exceed
	// the kernel's limit for one argument.
	if cmd.Stdin != "" {
		spec.Stdin = strings.NewReader(cmd.Stdin)
	}
	var display string
	if cmd.Shell != "" {
		spec.Args, display = []string{"bash", "-c", cmd.Shell}, cmd.Shell
	} else {
		_, display, _ = agent.Describe(r.agentSpec())
		spec.Args = cmd.Argv
	}
	name := fmt.Sprintf("agent attempt %d", attempt)
	r.out.Step(name, display)
	disarm := r.fault.Soon("during-step", 150*time.Millisecond)
	res, err := proc.Run(ctx, spec)
	disarm()
	r.pids().childDone()
	lt.Commands = append(lt.Commands, execlog.Command{Name: name, Command: display,
		ExitCode: res.ExitCode, Duration: res.Duration, Tail: res.Tail, TimedOut: res.TimedOut})
	r.out.StepEnd(t.ID, name, res.ExitCode, res.Duration)
	return agentOutcome(ctx, t, res, err, readReason(reasonPath))
}

// agentOutcome maps an agent's run to what it means for its task, as
// stepOutcome does for a step: nil when it ended well, context.Canceled
// when interrupted, an outcome.Failure when it gave up (reason), timed out or
// failed.
func agentOutcome(ctx context.Context, t *planparse.Task, res proc.Result, err error, reason string) error {
	if reason != "" && err == nil && !res.Interrupted {
		return &outcome.Failure{What: "the agent gave up: " + reason, Tail: res.Tail, GaveUp: true}
	}
	switch {
	case err != nil:
		return fmt.Errorf("agent for %s: %w", t.ID, err)
	case res.Interrupted || ctx.Err() != nil:
		return context.Canceled
	case res.TimedOut:
		return &outcome.Failure{What: fmt.Sprintf("the agent timed out after %s and was stopped with its whole process group", res.Duration.Round(time.Millisecond)), Tail: res.Tail}
	case res.ExitCode != 0:
		return &outcome.Failure{What: fmt.Sprintf("the agent exited with code %d", res.ExitCode), Tail: res.Tail}
	}
	return nil
}

func (r *runner) agentContext(t *planparse.Task, attempt int, feedback string) agent.Context {
	c := agent.Context{PlanPath: r.planRel, Goal: r.plan.Title, Attempt: attempt, Feedback: feedback, Repo: r.repo.Root}
	for _, lt := range r.log.Tasks {
		if lt.Status == record.TaskDone {
			if d := r.plan.Task(planparse.TaskID(lt.ID)); d != nil {
				c.Done = append(c.Done, d)
			}
		}
	}
	for _, g := range gates.Select(r.gates, t.Gates, true) {
		c.Gates = append(c.Gates, g.Name+": "+g.Command)
	}
	c.Checks = gates.AcceptanceCommands(t)
	c.Spec = r.specContext(t)
	for p := r.plan.Task(t.Parent); p != nil; p = r.plan.Task(p.Parent) {
		c.Groups = append([]*planparse.Task{p}, c.Groups...)
	}
	// A phase groups its tasks too: its introduction is their context.
	for _, ph := range r.plan.Phases {
		if ph.Title == t.Phase && ph.Intro != "" && strings.Count(ph.Intro, "\n") > 0 {
			c.Groups = append([]*planparse.Task{{Title: ph.Title, Body: ph.Intro}}, c.Groups...)
			break
		}
	}
	c.Protected = []string{r.planRel, gates.ConfigFile, path.Dir(r.log.Path) + "/"}
	for _, p := range append(append(gaterun.GateScripts(r.gates), gaterun.RunnerConfigFiles(r.gates)...), r.reached.Paths()...) {
		if fileExists(relJoin(r.repo.Root, p)) && !slices.Contains(c.Protected, p) {
			c.Protected = append(c.Protected, p)
		}
	}
	return c
}

// declaredFiles are the task's files an agent may edit: all it declares
// but those it deletes.
func declaredFiles(t *planparse.Task) []string {
	var out []string
	for _, f := range t.Files {
		if f.Action != planparse.ActionDelete {
			out = append(out, f.Path)
		}
	}
	return out
}

// readReason reads what an agent that gave up wrote (at most 2,000 bytes).
func readReason(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	s := strings.TrimSpace(string(b))
	if len(s) > 2000 {
		s = s[:2000] + "…"
	}
	return s
}
