package command

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v3"
)

// usageError is a command-line mistake made at cmd (the full command,
// "planx run"): reported in one line with a hint where to read the usage,
// never with the whole help on stdout.
type usageError struct {
	cmd string
	err error
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// Is makes every usage error an errUsage, so exit.go maps it to exit 2.
func (e *usageError) Is(target error) bool { return target == errUsage }

// markUsageErrors makes every command in the tree turn flag-parsing errors
// and the usage errors its action returns into a usageError naming it.
// urfave/cli calls OnUsageError of the command that failed, not the root's.
func markUsageErrors(c *cli.Command) {
	c.OnUsageError = func(_ context.Context, cmd *cli.Command, err error, _ bool) error {
		return &usageError{cmd: cmd.FullName(), err: flagError(cmd, err)}
	}
	if act := c.Action; act != nil {
		c.Action = func(ctx context.Context, cmd *cli.Command) error {
			err := act(ctx, cmd)
			if ue := (*usageError)(nil); errors.Is(err, errUsage) && !errors.As(err, &ue) {
				return &usageError{cmd: cmd.FullName(), err: err}
			}
			return err
		}
	}
	for _, sub := range c.Commands {
		markUsageErrors(sub)
	}
}

// flagError rewords the flag package's "flag provided but not defined: -x"
// as an unknown flag with the closest one the command has.
func flagError(cmd *cli.Command, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		return err
	}
	name = strings.TrimLeft(name, "-")
	var names []string
	for _, f := range cmd.VisibleFlags() {
		names = append(names, f.Names()...)
	}
	msg := fmt.Sprintf("unknown flag %s", dashed(name))
	if s := closest(names, name); s != "" {
		msg += fmt.Sprintf("; did you mean %s?", dashed(s))
	}
	return errors.New(msg)
}

func dashed(flag string) string {
	if len(flag) == 1 {
		return "-" + flag
	}
	return "--" + flag
}

// rootAction runs for `planx` alone (help) and for a first argument that
// names no command: a usage error with the closest command, like git's
// "did you mean".
func rootAction(_ context.Context, cmd *cli.Command) error {
	if cmd.NArg() == 0 {
		return cli.ShowRootCommandHelp(cmd)
	}
	name := cmd.Args().First()
	var names []string
	for _, c := range cmd.VisibleCommands() {
		names = append(names, c.Names()...)
	}
	msg := fmt.Sprintf("%q is not a planx command", name)
	if s := closest(names, name); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return fmt.Errorf("%w: %s", errUsage, msg)
}

// closest is the name a typo of name most likely meant: the nearest within
// a third of its length in edits (at least one), or one name starts with;
// "" when none is that close.
func closest(names []string, name string) string {
	best, bestDist := "", max(1, len(name)/3)+1
	for _, n := range names {
		d := editDistance(name, n)
		if len(name) > 1 && strings.HasPrefix(n, name) {
			d = min(d, 1)
		}
		if d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b (bytes: command names are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// describe is a command's help text: one paragraph on what it does and
// when to use it, then examples, like gh's help.
func describe(paragraph string, examples ...string) string {
	var b strings.Builder
	b.WriteString(paragraph)
	if len(examples) > 0 {
		b.WriteString("\n\nExamples:\n")
		for _, e := range examples {
			b.WriteString("  $ " + e + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// noArgs refuses arguments to a command that takes none.
func noArgs(cmd *cli.Command) error {
	if cmd.NArg() > 0 {
		return fmt.Errorf("%w: %s takes no arguments, got %q", errUsage, cmd.Name, cmd.Args().First())
	}
	return nil
}

// checkDir refuses a -C DIR that is not a directory before any command
// runs, as git -C does ("cannot change to ..."), as a usage error.
func checkDir(g *globalOptions) cli.BeforeFunc {
	return func(ctx context.Context, cmd *cli.Command) (context.Context, error) {
		if g.dir == "" {
			return ctx, nil
		}
		if fi, err := os.Stat(g.dir); err != nil || !fi.IsDir() {
			return ctx, &usageError{cmd: "planx", err: fmt.Errorf("%w: -C %s: not a directory", errUsage, g.dir)}
		}
		return ctx, nil
	}
}
