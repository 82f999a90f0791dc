package execute

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/agent"
	"github.com/planx-dev/planx/internal/fsutil"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/proc"
	"github.com/planx-dev/planx/internal/space"
	"github.com/planx-dev/planx/planparse"
)

// ReviewRun is one run of the review gate's reviewer on a task.
type ReviewRun struct {
	Spec    string // the reviewer: a preset or a command
	Model   string // given through the preset's model variable, and PLANX_REVIEW_MODEL
	Prompt  string
	Timeout time.Duration
}

// ReviewEnd is how the reviewer ended: its run and its whole output.
type ReviewEnd struct {
	Result proc.Result
	Output string // what it wrote, stdout and stderr (at most reviewMax, its end)
}

// reviewMax bounds the reviewer's output planx reads back: the verdict is
// its last line.
const reviewMax = 1 << 20

// Review runs the reviewer once on task t in o.Dir, read-only: in a task
// space of its own whose layers are removed afterwards, never applied, so
// nothing it writes reaches the work tree, the repository or the machine
// (not even its state directory, which it reads through the space). Where the platform has no
// task space, the review cannot be kept read-only and fails the task: a
// reviewer that may write could change what it reviews.
func Review(ctx context.Context, t *planparse.Task, r ReviewRun, o Options) (ReviewEnd, error) {
	stateDir := filepath.Join(o.OutDir, "review")
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return ReviewEnd{}, fmt.Errorf("review state directory: %w", err)
	}
	promptPath := filepath.Join(o.OutDir, fmt.Sprintf("%s-review-prompt.md", t.ID))
	if err := fsutil.WriteAtomic(promptPath, []byte(r.Prompt), 0o600); err != nil {
		return ReviewEnd{}, err
	}
	cmd, err := agent.Resolve(r.Spec, agent.Input{Prompt: r.Prompt, PromptFile: promptPath, StateDir: stateDir})
	if err != nil {
		return ReviewEnd{}, &outcome.Failure{What: "review: " + err.Error()}
	}
	hide, err := o.hide()
	if err != nil {
		return ReviewEnd{}, err
	}
	sp, closeSpace, err := o.Jail.reviewSpace(t, o.RunID, o.Dir, hide)
	if err != nil {
		return ReviewEnd{}, err
	}
	if sp == nil {
		return ReviewEnd{}, &outcome.Failure{What: "review: the reviewer needs a task space to be kept read-only, and this run has none (Linux with user namespaces and overlayfs, sandbox not off: docs/sandbox.md)"}
	}
	defer closeSpace()
	tmp, removeTmp, err := taskTemp(t)
	if err != nil {
		return ReviewEnd{}, err
	}
	defer removeTmp()
	env := append(o.env(t.ID, cmd.Env...), "PLANX_PROMPT_FILE="+promptPath, "PLANX_STATE_DIR="+stateDir,
		"PLANX_REVIEW_MODEL="+r.Model, "TMPDIR="+tmp, "TMP="+tmp, "TEMP="+tmp)
	if v := agent.ModelVar(r.Spec); v != "" && r.Model != "" {
		env = append(env, v+"="+r.Model)
	}
	spec := proc.Spec{
		Name:       fmt.Sprintf("%s review", t.ID),
		Dir:        o.Dir,
		Env:        env,
		Timeout:    cmp.Or(r.Timeout, gates.DefaultReviewTimeout),
		OutputPath: filepath.Join(o.OutDir, fmt.Sprintf("%s-review.log", t.ID)),
		Started:    o.Pids.Started(),
		Wrap:       sp.Wrap,
	}
	display := agentCommand(&spec, cmd, r.Spec)
	o.Out.Step(t.ID, "review", display)
	res, err := proc.Run(ctx, spec)
	o.Pids.ChildDone()
	if err != nil {
		return ReviewEnd{Result: res}, fmt.Errorf("review of %s: %w", t.ID, err)
	}
	if res.Interrupted || ctx.Err() != nil {
		return ReviewEnd{Result: res}, context.Canceled
	}
	if err := sp.SetupError(); err != nil {
		return ReviewEnd{Result: res}, fmt.Errorf("review of %s: its task space: %w", t.ID, err)
	}
	out, _, err := ReadCapped(spec.OutputPath, reviewMax)
	if err != nil {
		out = res.Tail
	}
	return ReviewEnd{Result: res, Output: readable(cmd.Transcript, out)}, nil
}

// readable is a reviewer's answer: a preset's CLI writes a JSON transcript
// (agent.Transcript), whose model's last message is the answer; plain
// output is as it is.
func readable(f agent.Transcript, out string) string {
	if f == agent.NoTranscript || f == agent.AiderText {
		return out
	}
	m := agent.NewMeter(f)
	_, _ = m.Write([]byte(out))
	m.Close()
	if a := m.Answer(); a != "" {
		return a
	}
	return m.Tail(200)
}

// reviewSpace opens a task space over dir for the reviewer of task t, or
// returns nil where the run has none. Unlike an agent's (openSpace) it
// names no work tree to recover into: a review's writes are never taken,
// not even after a crash. It hides what an agent's does (hide): the
// reviewer's findings go to the agent's next attempt.
func (j *Jail) reviewSpace(t *planparse.Task, runID, dir string, hide []string) (*space.Space, func(), error) {
	if !j.hasSpaces() {
		return nil, nil, nil
	}
	parent, err := space.StateParent(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: review space: %w", t.ID, err)
	}
	state, err := os.MkdirTemp(parent, "review-"+runID+"-"+string(t.ID)+"-")
	if err != nil {
		return nil, nil, fmt.Errorf("%s: review space: %w", t.ID, err)
	}
	sp, err := space.Open(space.Options{Root: dir, Dir: state, Hide: hide})
	if err != nil {
		_ = os.RemoveAll(state)
		return nil, nil, fmt.Errorf("%s: review space: %w", t.ID, err)
	}
	return sp, func() {
		_ = sp.Close()
		_ = os.RemoveAll(state)
	}, nil
}
