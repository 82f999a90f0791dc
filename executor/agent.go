package executor

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/planx-dev/planx/agent"
	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/fsutil"
	"github.com/planx-dev/planx/internal/proc"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/record"
)

// defaultAgentTimeout bounds an agent when no task timeout is set: agents
// hang on prompts, rate limits and full context windows.
const defaultAgentTimeout = 30 * time.Minute

// agentSpec is the agent setting in force: flag, plan, config.
func (r *runner) agentSpec() string {
	return firstNonEmpty(r.o.Agent, r.plan.Agent, r.cfg.Agent)
}

// runAgent runs the agent once on the task. Its exit code says little (0
// also covers max-turns and refusals): the verification after it decides.
func (r *runner) runAgent(ctx context.Context, t *planparse.Task, lt *execlog.Task, attempt int, feedback string) error {
	prompt := agent.Prompt(t, r.agentContext(t, attempt, feedback))
	cmd, err := agent.Resolve(r.agentSpec(), prompt)
	if err != nil {
		return &taskFailure{what: err.Error()}
	}
	dir := runDir(r.repo, r.st.RunID)
	promptPath := filepath.Join(dir, fmt.Sprintf("%s-prompt-%d.md", t.ID, attempt))
	if err := fsutil.WriteAtomic(promptPath, []byte(prompt), 0o600); err != nil {
		return err
	}
	timeout := r.o.TaskTimeout
	if timeout == 0 {
		timeout = defaultAgentTimeout
	}
	spec := proc.Spec{
		Name:       fmt.Sprintf("%s agent", t.ID),
		Dir:        r.repo.Root,
		Env:        append(r.env(t, cmd.Env...), "PLANX_PROMPT_FILE="+promptPath),
		Timeout:    timeout,
		OutputPath: filepath.Join(dir, fmt.Sprintf("%s-agent-%d.log", t.ID, attempt)),
		Live:       r.out.live(),
		Started:    r.childStarted,
	}
	var display string
	if cmd.Shell != "" {
		spec.Args, spec.Stdin, display = []string{"bash", "-c", cmd.Shell}, strings.NewReader(prompt), cmd.Shell
	} else {
		spec.Args = cmd.Argv
		display = strings.Join(cmd.Argv[:len(cmd.Argv)-1], " ") + " <prompt>"
	}
	name := fmt.Sprintf("agent attempt %d", attempt)
	r.out.step(name, display)
	disarm := r.faultSoon("during-step", 150*time.Millisecond)
	res, err := proc.Run(ctx, spec)
	disarm()
	r.childDone()
	lt.Commands = append(lt.Commands, execlog.Command{Name: name, Command: display,
		ExitCode: res.ExitCode, Duration: res.Duration, Tail: res.Tail, TimedOut: res.TimedOut})
	r.out.stepEnd(t.ID, name, res.ExitCode, res.Duration)
	switch {
	case err != nil:
		return fmt.Errorf("agent for %s: %w", t.ID, err)
	case res.Interrupted || ctx.Err() != nil:
		return context.Canceled
	case res.TimedOut:
		return &taskFailure{what: fmt.Sprintf("the agent timed out after %s and was stopped with its whole process group", res.Duration.Round(time.Millisecond)), tail: res.Tail}
	case res.ExitCode != 0:
		return &taskFailure{what: fmt.Sprintf("the agent exited with code %d", res.ExitCode), tail: res.Tail}
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
	c.Checks = acceptanceCommands(t)
	return c
}

// acceptanceCommands are acceptance criteria written as a command: the
// whole item is one code span, e.g. Acceptance: `go test ./pkg/...`.
func acceptanceCommands(t *planparse.Task) []string {
	var out []string
	for _, a := range t.Acceptance {
		a = strings.TrimSpace(a)
		if len(a) > 2 && strings.HasPrefix(a, "`") && strings.HasSuffix(a, "`") && strings.Count(a, "`") == 2 {
			out = append(out, strings.TrimSpace(a[1:len(a)-1]))
		}
	}
	return out
}
