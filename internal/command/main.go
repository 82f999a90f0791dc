package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/planx-dev/planx/internal/sandbox"
	"github.com/planx-dev/planx/internal/space"

	"github.com/urfave/cli/v3"
	"golang.org/x/term"
)

// IO is the process's standard streams, injected so tests can drive commands.
type IO struct {
	In       io.Reader
	Out      io.Writer
	Err      io.Writer
	Terminal bool // Out is an interactive terminal
}

// StdIO returns the process's real streams.
func StdIO() *IO {
	return &IO{
		In:       os.Stdin,
		Out:      os.Stdout,
		Err:      os.Stderr,
		Terminal: term.IsTerminal(int(os.Stdout.Fd())),
	}
}

// globalOptions are the flags of planx itself, given before or after the
// command name (planx -C DIR status, planx status -C DIR).
type globalOptions struct {
	dir string // -C: run as if started in dir, like git -C

	// parsed, when set, receives each command's parsed options instead of
	// the command running: the seam through which tests check what a
	// command line parses to (gh's runF), without a repository or a run.
	parsed func(opts any)
}

// dispatch hands a command's parsed options to its plain run function, or
// to g.parsed in tests.
func dispatch[O any](ctx context.Context, g *globalOptions, o O, stdio *IO, run func(context.Context, O, *IO) error) error {
	if g.parsed != nil {
		g.parsed(o)
		return nil
	}
	return run(ctx, o, stdio)
}

// Main runs planx with args (args[0] is the program name) and returns the exit code.
func Main(ctx context.Context, args []string, stdio *IO) int {
	return runRoot(ctx, newRoot(stdio), args, stdio)
}

// stopSignals all stop a run the one way: the context is cancelled, the
// task's processes are ended, the stop is recorded and planx exits 130.
// SIGHUP (the terminal closed) and SIGQUIT (Ctrl-\) are among them: their
// default action ends planx at once, with no cleanup, leaving a wave's
// agents writing into slots that the next resume would commit.
// A func, not a var: no package-level state a caller could change.
func stopSignals() []os.Signal {
	return []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}
}

// runRoot runs the command tree and reports an error the way a shell user
// expects: one line on stderr, a hint for usage errors, the exit code of exit.go.
func runRoot(ctx context.Context, root *cli.Command, args []string, stdio *IO) int {
	if len(args) > 1 && args[1] == sandbox.HelperArg {
		// planx re-executed as the sandbox helper of a confined child.
		return sandbox.Main(args[2:], stdio.Err)
	}
	if len(args) > 1 && args[1] == space.HelperArg {
		// planx re-executed as process 1 of a task space.
		return space.Main(args[2:], stdio.Err)
	}
	ctx, stop := signal.NotifyContext(ctx, stopSignals()...)
	defer stop()
	err := root.Run(ctx, args)
	code := exitCode(err)
	if err == nil || code == ExitOK {
		return code
	}
	fmt.Fprintf(stdio.Err, "planx: %v\n", err)
	if ue := (*usageError)(nil); errors.As(err, &ue) {
		fmt.Fprintf(stdio.Err, "Run '%s --help' for usage.\n", ue.cmd)
	}
	return code
}

func newRoot(stdio *IO) *cli.Command { return newRootWith(stdio, &globalOptions{}) }

func newRootWith(stdio *IO, g *globalOptions) *cli.Command {
	root := &cli.Command{
		Name:  "planx",
		Usage: "execute a markdown implementation plan, one verified and gated git commit per task",
		Description: "planx parses a plan, makes a rollback commit, then runs each task, verifies with git\n" +
			"that real work happened, runs the quality gates and commits the task atomically.\n\n" + exitCodeHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "C", Usage: "run as if planx was started in `DIR` (like git -C)", Destination: &g.dir},
		},
		Reader:                stdio.In,
		Writer:                stdio.Out,
		ErrWriter:             stdio.Err,
		EnableShellCompletion: true,
		Suggest:               true,
		// planx maps errors to exit codes itself (exit.go); keep urfave/cli from calling os.Exit.
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
		Before:         checkDir(g),
		Action:         rootAction,
		Commands:       commands(stdio, g),
	}
	markUsageErrors(root)
	return root
}

// commands lists the subcommands; each lives in its own file.
func commands(stdio *IO, g *globalOptions) []*cli.Command {
	return []*cli.Command{
		newValidateCmd(stdio, g),
		newRunCmd(stdio, g),
		newResumeCmd(stdio, g),
		newSkipCmd(stdio, g),
		newAbortCmd(stdio, g),
		newUndoCmd(stdio, g),
		newStatusCmd(stdio, g),
		newUnlockCmd(stdio, g),
		newPruneCmd(stdio, g),
		newLogCmd(stdio, g), newShowCmd(stdio, g), newVerifyCmd(stdio, g), newHookCmd(stdio, g), newCICmd(stdio, g),
		newApproveCmd(stdio, g),
		newDemoCmd(stdio, g),
		newVersionCmd(stdio),
	}
}
