package command

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/urfave/cli/v3"
)

// Build says which planx this is. Release builds set both from ldflags in
// package main (-X main.version=v1.2.3 -X main.commit=abc123); anything left
// empty is taken from the module build info (go install …@v1.2.3 records the
// version, a build from a checkout records vcs.revision).
type Build struct {
	Version string
	Commit  string
}

// resolve fills what ldflags did not from debug.ReadBuildInfo.
func (b Build) resolve(info *debug.BuildInfo, ok bool) Build {
	if ok && b.Version == "" && info.Main.Version != "" {
		b.Version = info.Main.Version
	}
	if ok && b.Commit == "" {
		modified := false
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Commit = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if b.Commit != "" && modified {
			b.Commit += "-dirty"
		}
	}
	if b.Version == "" {
		b.Version = "(devel)"
	}
	if b.Commit == "" {
		b.Commit = "unknown"
	}
	return b
}

// String is what --version prints after "planx version ".
func (b Build) String() string { return fmt.Sprintf("%s (commit %s)", b.Version, b.Commit) }

// MainWithBuild is Main for the real binary: it adds --version and lists the
// completion command (hidden by urfave/cli by default) in help.
func MainWithBuild(ctx context.Context, args []string, stdio *IO, b Build) int {
	return runRoot(ctx, withBuild(newRoot(stdio), b.resolve(debug.ReadBuildInfo())), args, stdio)
}

func withBuild(root *cli.Command, b Build) *cli.Command {
	root.Version = b.String()
	root.ConfigureShellCompletionCommand = func(c *cli.Command) {
		c.Hidden = false
		c.Usage = "print a shell completion script: source <(planx completion bash), or zsh, fish, pwsh"
	}
	return root
}

// newVersionCmd is `planx version`, which prints what --version prints, as
// `git version` and `terraform version` do.
func newVersionCmd(stdio *IO) *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print planx's version and commit (the same as planx --version)",
		Description: describe(`version prints the planx that runs: its version, set at release or recorded by go install
from a tag, and the commit it was built from (with -dirty when the checkout had changes), as
planx --version does, in the form git version uses. Quote it in a bug report, and compare it
with the planx your CI runs when the two disagree about a plan.`,
			"planx version",
			"planx --version"),
		Action: func(_ context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			v := cmd.Root().Version
			if v == "" { // built without MainWithBuild (tests): what it would say
				v = Build{}.resolve(debug.ReadBuildInfo()).String()
			}
			_, err := fmt.Fprintf(stdio.Out, "%s version %s\n", cmd.Root().Name, v)
			return err
		},
	}
}
