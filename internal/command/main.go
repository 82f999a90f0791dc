package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

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

// Main runs planx with args (args[0] is the program name) and returns the exit code.
func Main(ctx context.Context, args []string, stdio *IO) int {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := newRoot(stdio)
	err := root.Run(ctx, args)
	code := exitCode(err)
	if err != nil && code != ExitOK {
		fmt.Fprintf(stdio.Err, "planx: %v\n", err)
	}
	return code
}

func newRoot(stdio *IO) *cli.Command {
	return &cli.Command{
		Name:  "planx",
		Usage: "execute a markdown implementation plan, one verified and gated git commit per task",
		Description: "planx parses a plan, makes a rollback commit, then runs each task, verifies with git\n" +
			"that real work happened, runs the quality gates and commits the task atomically.\n\n" + exitCodeHelp,
		Reader:                stdio.In,
		Writer:                stdio.Out,
		ErrWriter:             stdio.Err,
		EnableShellCompletion: true,
		Suggest:               true,
		// planx maps errors to exit codes itself (exit.go); keep urfave/cli from calling os.Exit.
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
		OnUsageError: func(_ context.Context, _ *cli.Command, err error, _ bool) error {
			return errors.Join(errUsage, err)
		},
		Commands: commands(stdio),
	}
}

// commands lists the subcommands; each lives in its own file.
func commands(stdio *IO) []*cli.Command {
	return []*cli.Command{
		newValidateCmd(stdio),
		newRunCmd(stdio),
		newResumeCmd(stdio),
		newSkipCmd(stdio),
		newAbortCmd(stdio),
		newStatusCmd(stdio),
		newUnlockCmd(stdio),
		newLogCmd(stdio), newShowCmd(stdio), newVerifyCmd(stdio), newHookCmd(stdio),
		newApproveCmd(stdio),
		newDemoCmd(stdio),
	}
}
