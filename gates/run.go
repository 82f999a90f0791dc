package gates

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/planx-dev/planx/internal/proc"
	"github.com/planx-dev/planx/planparse"
)

// Result is the outcome of one gate.
type Result struct {
	Name       string
	Command    string // after blast radius substitution
	Passed     bool
	ExitCode   int
	Duration   time.Duration
	TimedOut   bool
	Tail       string
	OutputPath string // the whole output
}

// RunOptions tell Run where and for which task the gates run.
type RunOptions struct {
	Dir    string
	Env    []string // full environment for the commands; nil inherits planx's (PLANX_* are dropped either way)
	OutDir string   // output goes to OutDir/<task>-<gate>.log; empty keeps only the tail
	Task   planparse.TaskID
	// BlastRadius is the task's declared blast radius, substituted into the
	// commands (see Gate.Expand).
	BlastRadius string
	Live        io.Writer      // optional copy of the output for a progress view
	Started     func(pgid int) // see proc.Spec.Started
	Begin       func(g Gate)   // optional: called as each gate starts, for a progress view
	// Prepare, optional, is called before each gate starts, to put beside
	// it what its run needs in Dir (the judge's canary tests); done is
	// called when it has ended.
	Prepare func(g Gate) (done func(), err error)
	// Wrap, optional, rewrites each gate's command before it starts (see
	// proc.Spec.Wrap): the judge's space.
	Wrap func(*exec.Cmd) error
}

// Run runs every gate in order and returns all their results: it does not
// stop at the first failure, because a person fixing a task wants to see
// every gate it breaks. The error is for gates that could not be run at all
// and for interruption; it then wraps the context's error (context.Canceled
// for Ctrl-C) and the results hold the gates run so far.
func Run(ctx context.Context, gs []Gate, o RunOptions) ([]Result, error) {
	rs := make([]Result, 0, len(gs))
	env := o.Env
	if env == nil {
		env = os.Environ()
	}
	env = WithoutPlanx(env)
	for _, g := range gs {
		if err := ctx.Err(); err != nil {
			return rs, fmt.Errorf("gate %s: not started: %w", g.Name, err)
		}
		timeout := g.Timeout
		if timeout == 0 {
			timeout = DefaultTimeout
		}
		if o.Begin != nil {
			o.Begin(g)
		}
		r := Result{Name: g.Name, Command: g.Expand(o.BlastRadius)}
		spec := proc.Spec{
			Name:    "gate " + g.Name,
			Args:    []string{"bash", "-o", "pipefail", "-c", r.Command},
			Dir:     o.Dir,
			Env:     env,
			Timeout: timeout,
			Live:    o.Live,
			Started: o.Started,
			// A gate's whole output is kept up to a cap: a runaway test
			// log must not fill the disk (its tail is kept regardless).
			MaxOutput: MaxOutput,
			Wrap:      o.Wrap,
		}
		if o.OutDir != "" {
			spec.OutputPath = filepath.Join(o.OutDir, LogName(o.Task, g.Name))
		}
		err := g.Report.ClearReport(o.Dir)
		if err != nil {
			return rs, fmt.Errorf("gate %s: %w", g.Name, err)
		}
		done := func() {}
		if o.Prepare != nil {
			if done, err = o.Prepare(g); err != nil {
				return rs, fmt.Errorf("gate %s: %w", g.Name, err)
			}
		}
		pr, err := proc.Run(ctx, spec)
		done()
		r.Passed = err == nil && pr.OK()
		r.ExitCode, r.Duration, r.TimedOut = pr.ExitCode, pr.Duration, pr.TimedOut
		r.Tail, r.OutputPath = pr.Tail, pr.OutputPath
		rs = append(rs, r)
		if err != nil {
			return rs, err // proc's error already starts with "gate <name>: "
		}
		if pr.Interrupted {
			return rs, fmt.Errorf("gate %s: interrupted: %w", g.Name, ctx.Err())
		}
	}
	return rs, nil
}

// Failed returns the results of the gates that did not pass.
func Failed(rs []Result) []Result {
	var out []Result
	for _, r := range rs {
		if !r.Passed {
			out = append(out, r)
		}
	}
	return out
}

// LogName is the file name of a gate's output for a task: "T003-test.log",
// or "test.log" without a task (final gates). Characters that are not safe
// in a file name are replaced, since gate names come from plans.
func LogName(task planparse.TaskID, gate string) string {
	safe := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, gate)
	if task == "" {
		return safe + ".log"
	}
	return string(task) + "-" + safe + ".log"
}
