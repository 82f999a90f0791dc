package execute

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/internal/agent"
	"github.com/planx-dev/planx/internal/fsutil"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/proc"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/sandbox"
	"github.com/planx-dev/planx/internal/space"
	"github.com/planx-dev/planx/planparse"
)

// DefaultAgentTimeout bounds an agent when no task timeout is set: agents
// hang on prompts, rate limits and full context windows.
const DefaultAgentTimeout = 30 * time.Minute

// AgentRun is one run of the agent on a task.
type AgentRun struct {
	Spec    string        // the agent setting in force: flag, plan, config
	Attempt int           // 1 for the first
	Context agent.Context // what the prompt says besides the task
}

// AgentEnd is what planx took from an agent's run besides its outcome.
type AgentEnd struct {
	// Tip is the commit the agent's HEAD ended at in its task space, when
	// it committed there ("" otherwise): its commits are folded into the
	// task's.
	Tip string
	// Cost is what the agent reported its model use cost in this attempt
	// (its transcript, or the usage file of a custom command).
	Cost record.Cost
	// Wrote are the work tree's paths the agent wrote or deleted in its
	// task space (repo-relative, sorted); nil when it ran outside a space,
	// where what it wrote cannot be told from what anybody else wrote.
	Wrote []string
}

// confineAgent opens the agent's task space (sp, nil where the run has
// none) or its confinement by denial: the wrapper of its command, the
// variables to add, and what removes the space. It records the level in lt.
func (o Options) confineAgent(t *planparse.Task, lt *execlog.Task, tmp, stateDir string, cmd agent.Command) (sp *space.Space, wrap func(*exec.Cmd) error, env []string, closeSpace func(), err error) {
	closeSpace = func() {}
	hide, err := o.hide()
	if err != nil {
		return nil, nil, nil, closeSpace, err
	}
	sp, closeSp, err := o.Jail.openSpace(t, o.RunID, o.Dir, stateDir, hide)
	if err != nil {
		return nil, nil, nil, closeSpace, err
	}
	if sp == nil && len(hide) > 0 {
		return nil, nil, nil, closeSpace, &outcome.Failure{What: "hidden_tests: the agent would see the hidden tests: they are hidden only in a task space, and this run has none (Linux with user namespaces and overlayfs, sandbox not off: docs/sandbox.md)"}
	}
	if sp != nil {
		lt.Sandbox = string(sandbox.Overlay)
		return sp, sp.Wrap, []string{"TMPDIR=" + tmp, "TMP=" + tmp, "TEMP=" + tmp}, closeSp, nil
	}
	wrap, level, env, err := o.Jail.agent(t.ID, o.Dir, tmp, stateDir, cmd)
	if err != nil {
		return nil, nil, nil, closeSpace, err
	}
	lt.Sandbox = string(level)
	return nil, wrap, env, closeSpace, nil
}

// Agent runs the agent once on the task in o.Dir, in a task space where
// the platform has one (space.go), else confined by o.Jail. Its exit code
// says little (0 also covers max-turns and refusals): the verification
// after it decides.
func Agent(ctx context.Context, t *planparse.Task, lt *execlog.Task, a AgentRun, o Options) (AgentEnd, error) {
	// The reason file is in the state directory: the one place under the
	// git directory a confined agent may write.
	stateDir := filepath.Join(o.OutDir, "agent")
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return AgentEnd{}, fmt.Errorf("agent state directory: %w", err)
	}
	reasonPath := filepath.Join(stateDir, fmt.Sprintf("%s-reason-%d.txt", t.ID, a.Attempt))
	c := a.Context
	c.ReasonFile = reasonPath
	prompt := agent.Prompt(t, c)
	promptPath := filepath.Join(o.OutDir, fmt.Sprintf("%s-prompt-%d.md", t.ID, a.Attempt))
	if err := fsutil.WriteAtomic(promptPath, []byte(prompt), 0o600); err != nil {
		return AgentEnd{}, err
	}
	cmd, err := agent.Resolve(a.Spec, agent.Input{Prompt: prompt, PromptFile: promptPath,
		Files: declaredFiles(t), StateDir: stateDir})
	if err != nil {
		return AgentEnd{}, &outcome.Failure{What: err.Error()}
	}
	tmp, removeTmp, err := taskTemp(t)
	if err != nil {
		return AgentEnd{}, err
	}
	defer removeTmp()
	sp, wrap, env, closeSpace, err := o.confineAgent(t, lt, tmp, stateDir, cmd)
	if err != nil {
		return AgentEnd{}, err
	}
	defer closeSpace()
	usagePath := filepath.Join(stateDir, fmt.Sprintf("%s-usage-%d.json", t.ID, a.Attempt))
	spec := proc.Spec{
		Name: fmt.Sprintf("%s agent", t.ID),
		Dir:  o.Dir,
		Env: append(append(o.env(t.ID, cmd.Env...), "PLANX_PROMPT_FILE="+promptPath,
			"PLANX_STATE_DIR="+stateDir, "PLANX_REASON_FILE="+reasonPath, "PLANX_USAGE_FILE="+usagePath), env...),
		Timeout:    cmp.Or(o.TaskTimeout, DefaultAgentTimeout),
		OutputPath: filepath.Join(o.OutDir, fmt.Sprintf("%s-agent-%d.log", t.ID, a.Attempt)),
		Started:    o.Pids.Started(),
		Wrap:       wrap,
	}
	meter := agent.NewMeter(cmd.Transcript)
	res, over, err := o.runAgent(ctx, t, lt, a, &spec, cmd, meter)
	hint := ""
	reason := readReason(reasonPath)
	var end AgentEnd
	if sp != nil {
		if cs, cerr := sp.Changes(); cerr == nil {
			end.Wrote = append(append([]string{}, cs.Written...), cs.Deleted...)
		}
		l, lerr := land(sp, o.Repo, o.Dir, tmp, o.Held, lt, reasonPath)
		if lerr != nil && err == nil {
			err = lerr
		}
		reason, end.Tip = cmp.Or(l.reason, reason), l.tip
		usagePath = spaceFile(sp, usagePath)
	}
	cost, cerr := attemptCost(meter, cmd, usagePath)
	end.Cost = cost
	if err == nil && !cost.IsZero() && o.Budget != nil {
		// Again with the whole cost: a CLI may report its use only at its end.
		over, hint = o.Budget.Over(cost)
	}
	switch {
	case over != "" && err == nil && ctx.Err() == nil:
		return end, budgetFailure(over, res, hint)
	case cerr != nil && err == nil:
		return end, &outcome.Failure{What: cerr.Error(), Tail: res.Tail}
	}
	return end, agentOutcome(ctx, t, res, err, reason, meter.Calls())
}

// runAgent starts the agent as spec says, shows and records it. Its output
// goes through meter, which shows a readable line for each event of a
// preset's transcript; over is why the budget stopped it ("" when not).
func (o Options) runAgent(ctx context.Context, t *planparse.Task, lt *execlog.Task, a AgentRun, spec *proc.Spec, cmd agent.Command, meter *agent.Meter) (res proc.Result, over string, err error) {
	live, flush := o.Out.Live(t.ID)
	defer flush()
	meter.Out, spec.Live = live, meter
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	var overBudget atomic.Pointer[string]
	if o.Budget != nil {
		meter.OnCost = func(c record.Cost) {
			if why, _ := o.Budget.Over(c); why != "" && overBudget.CompareAndSwap(nil, &why) {
				stop() // the agent's whole process group, as an interrupt
			}
		}
	}
	display := agentCommand(spec, cmd, a.Spec)
	name := fmt.Sprintf("agent attempt %d", a.Attempt)
	o.Out.Step(t.ID, name, display)
	if o.Slot {
		// Several agents run at once: each one's output can be followed
		// in its own file (tail -f) while they run; a transcript's
		// readable lines, in a file beside it.
		follow, closeFollow := followFile(spec.OutputPath, cmd, meter)
		defer closeFollow()
		o.Out.Println("      %s output: %s", t.ID, follow)
	}
	disarm := o.Fault.Soon("during-step", 150*time.Millisecond)
	res, err = proc.Run(ctx, *spec)
	disarm()
	o.Pids.ChildDone()
	meter.Close()
	if cmd.Transcript != agent.NoTranscript {
		// The transcript's JSON says little to a person: its readable lines.
		res.Tail = meter.Tail(proc.DefaultTailLines)
	}
	lt.Commands = append(lt.Commands, execlog.Command{Name: name, Command: display,
		ExitCode: res.ExitCode, Duration: res.Duration, Tail: res.Tail, TimedOut: res.TimedOut})
	o.stepEnd(t.ID, name, res)
	if p := overBudget.Load(); p != nil {
		over = *p
	}
	return res, over, err
}

// agentCommand sets what spec starts for the agent command cmd and returns
// how the log shows it. The prompt never goes on the command line: a long
// task would exceed the kernel's limit for one argument.
func agentCommand(spec *proc.Spec, cmd agent.Command, setting string) string {
	if cmd.Stdin != "" {
		spec.Stdin = strings.NewReader(cmd.Stdin)
	}
	if cmd.Shell != "" {
		spec.Args = []string{"bash", "-c", cmd.Shell}
		return cmd.Shell
	}
	_, display, _ := agent.Describe(setting)
	spec.Args = cmd.Argv
	return display
}

// agentOutcome maps an agent's run to what it means for its task, as
// stepOutcome does for a step: nil when it ended well, context.Canceled
// when interrupted, an outcome.Failure when it gave up (reason), timed out,
// failed, or every tool call it made failed (calls, from its transcript).
func agentOutcome(ctx context.Context, t *planparse.Task, res proc.Result, err error, reason string, calls []agent.ToolCall) error {
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
	// It ended well by its own account, but its transcript shows it could
	// do nothing: not "no changes" later, but why.
	if all := agent.AllFailed(calls); all != "" {
		return &outcome.Failure{What: all, Tail: res.Tail}
	}
	return nil
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
