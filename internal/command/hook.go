package command

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fsutil"
	"github.com/planx-dev/planx/internal/review"
	"github.com/urfave/cli/v3"
)

// hookOptions are `planx hook`'s arguments.
type hookOptions struct {
	Dir        string
	RerunGates bool
	Planx      string // what the hook runs; the installing binary by default
}

const (
	hookMarker  = "# installed by planx hook install"
	chainedName = "pre-push.planx-chained"
)

func newHookCmd(stdio *IO, g *globalOptions) *cli.Command {
	o := &hookOptions{}
	rerun := &cli.BoolFlag{Name: "rerun-gates", Usage: "also re-run the gates of unverified commits before each push", Destination: &o.RerunGates}
	return &cli.Command{
		Name:  "hook",
		Usage: "install or remove a pre-push hook that runs planx verify on what is pushed",
		Description: describe(`install writes a pre-push hook into git's hooks directory (core.hooksPath is honoured).
An existing pre-push hook is kept as pre-push.planx-chained and runs first, with the same
input; uninstall puts it back. The hook runs the planx that installed it (its absolute path),
or planx from PATH when that file is gone. See docs/review.md.`,
			"planx hook install",
			"planx hook install --rerun-gates",
			"planx hook uninstall"),
		Commands: []*cli.Command{
			{
				Name:  "install",
				Usage: "install the pre-push hook (idempotent)",
				Flags: []cli.Flag{rerun},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					o.Dir = g.dir
					return dispatch(ctx, g, *o, stdio, runHookInstall)
				},
			},
			{
				Name:  "uninstall",
				Usage: "remove the pre-push hook, restoring a chained one",
				Action: func(ctx context.Context, cmd *cli.Command) error {
					o.Dir = g.dir
					return dispatch(ctx, g, *o, stdio, runHookUninstall)
				},
			},
			{
				// What the installed script calls; git's stdin lines come through.
				Name:   "pre-push",
				Hidden: true,
				Flags:  []cli.Flag{rerun},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					o.Dir = g.dir
					return dispatch(ctx, g, *o, stdio, runPrePush)
				},
			},
		},
	}
}

// hookScript is the pre-push hook. It keeps git's stdin byte for byte (the
// trailing "x" stops $(...) from eating final newlines) so the chained hook
// and planx both read all of it.
func hookScript(planx string, rerun bool) string {
	flags := ""
	if rerun {
		flags = " --rerun-gates"
	}
	return `#!/bin/sh
` + hookMarker + `: checks planx runs before they are pushed.
# Remove with "planx hook uninstall"; skip once with "git push --no-verify".
# A pre-push hook can only check: a commit made here would not be pushed.
installed=` + shellQuote(planx) + `
planx=$installed
[ -x "$planx" ] || planx=$(command -v planx) || {
	echo "planx pre-push hook: planx is neither at $installed nor on PATH; reinstall it or git push --no-verify" >&2
	exit 1
}
hooks=$(dirname -- "$0")
input=$(cat; echo x)
input=${input%x}
if [ -x "$hooks/` + chainedName + `" ]; then
	printf '%s' "$input" | "$hooks/` + chainedName + `" "$@" || exit $?
fi
printf '%s' "$input" | "$planx" hook pre-push` + flags + `
`
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func hookPaths(ctx context.Context, dir string) (hook, chained string, err error) {
	repo, err := openRepo(ctx, dir)
	if err != nil {
		return "", "", err
	}
	hooks, err := repo.Config().HooksDir(ctx)
	if err != nil {
		return "", "", err
	}
	return filepath.Join(hooks, "pre-push"), filepath.Join(hooks, chainedName), nil
}

func isPlanxHook(path string) (exists, ours bool, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		_, lerr := os.Lstat(path) // a dangling symlink is still somebody's hook
		return lerr == nil, false, nil
	}
	if err != nil {
		return false, false, fmt.Errorf("read %s: %w", path, err)
	}
	return true, strings.Contains(string(b), hookMarker), nil
}

func runHookInstall(ctx context.Context, o hookOptions, stdio *IO) error {
	hook, chained, err := hookPaths(ctx, o.Dir)
	if err != nil {
		return err
	}
	if o.Planx == "" {
		if o.Planx, err = os.Executable(); err != nil {
			return fmt.Errorf("hook install: locate planx: %w", err)
		}
	}
	exists, ours, err := isPlanxHook(hook)
	if err != nil {
		return err
	}
	if exists && !ours {
		if _, err := os.Lstat(chained); err == nil {
			return fmt.Errorf("hook install: both %s and %s exist and neither is planx's; merge them by hand", hook, chained)
		}
		if err := os.Rename(hook, chained); err != nil {
			return fmt.Errorf("hook install: %w", err)
		}
		fmt.Fprintf(stdio.Out, "planx: kept your pre-push hook as %s; it runs first\n", chained)
	}
	// Atomic, so a push running meanwhile never sees half a script.
	if err := fsutil.WriteAtomic(hook, []byte(hookScript(o.Planx, o.RerunGates)), 0o755); err != nil {
		return fmt.Errorf("hook install: %w", err)
	}
	fmt.Fprintf(stdio.Out, "planx: pre-push hook installed at %s (runs %s)\n", hook, o.Planx)
	return nil
}

func runHookUninstall(ctx context.Context, o hookOptions, stdio *IO) error {
	hook, chained, err := hookPaths(ctx, o.Dir)
	if err != nil {
		return err
	}
	exists, ours, err := isPlanxHook(hook)
	if err != nil {
		return err
	}
	if exists && !ours {
		fmt.Fprintf(stdio.Out, "planx: %s is not planx's hook; left alone\n", hook)
		return nil
	}
	if ours {
		if err := os.Remove(hook); err != nil {
			return fmt.Errorf("hook uninstall: %w", err)
		}
	}
	if _, err := os.Lstat(chained); err == nil {
		if err := os.Rename(chained, hook); err != nil {
			return fmt.Errorf("hook uninstall: %w", err)
		}
		fmt.Fprintf(stdio.Out, "planx: restored your pre-push hook %s\n", hook)
	}
	if ours {
		fmt.Fprintf(stdio.Out, "planx: pre-push hook removed from %s\n", hook)
	} else {
		fmt.Fprintln(stdio.Out, "planx: no planx pre-push hook installed")
	}
	return nil
}

// runPrePush reads git's "<local ref> <local sha> <remote ref> <remote sha>"
// lines and verifies each update: the pushed range when the remote tip is
// known here, else every commit of the local tip that no remote-tracking ref
// reaches (a new branch, or a remote tip this clone never fetched), across
// every run those commits touch. Deletions are skipped.
func runPrePush(ctx context.Context, o hookOptions, stdio *IO) error {
	repo, err := openRepo(ctx, o.Dir)
	if err != nil {
		return err
	}
	var errs []error
	sc := bufio.NewScanner(stdio.In)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) != 4 {
			return fmt.Errorf("%w: pre-push: unexpected input line %q", errUsage, sc.Text())
		}
		local, remote := f[1], f[3]
		if zeroSHA(local) {
			continue
		}
		// The hook runs in the pusher's own clone: its gate definitions are
		// the pusher's.
		opts := review.Options{Rev: local, Unpushed: true, GateOutput: stdio.Err, TrustBranchConfig: true}
		if o.RerunGates {
			opts.Rerun = review.RerunUnverified
		}
		if !zeroSHA(remote) {
			if known, err := repo.Refs().Resolve(ctx, remote); err == nil && known != "" {
				opts.Rev, opts.Unpushed, opts.Range = "", false, remote+".."+local
			}
		}
		fmt.Fprintf(stdio.Out, "planx pre-push: %s\n", f[0])
		warnHeldWork(ctx, repo, opts, stdio.Err)
		rep, err := review.Verify(ctx, repo, opts)
		writeVerifyText(stdio.Out, rep)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", f[0], err))
		}
	}
	if err := sc.Err(); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("pre-push: read refs: %w", err)
	}
	if len(errs) > 0 {
		return fmt.Errorf("push refused (git push --no-verify skips the check): %w", errors.Join(errs...))
	}
	return nil
}

func zeroSHA(s string) bool { return strings.Trim(s, "0") == "" && len(s) >= len(gitops.ZeroSHA) }

// warnHeldWork warns of the rollback commits in the push that hold
// uncommitted work from before a run: it goes out with the run. A warning,
// not a refusal: the work may be meant to go, and the rollback commit is
// what makes the run's history whole.
func warnHeldWork(ctx context.Context, repo *gitops.Repo, opts review.Options, w io.Writer) {
	var cs []gitops.Commit
	var err error
	if opts.Range != "" {
		from, to, _ := strings.Cut(opts.Range, "..")
		cs, err = repo.History().Log(ctx, gitops.SHA(to), gitops.SHA(from), 0)
	} else {
		cs, err = repo.History().Unpushed(ctx, gitops.SHA(opts.Rev))
	}
	if err == nil {
		var held []review.HeldWork
		if held, err = review.RollbackWork(ctx, repo, cs); err == nil {
			for _, h := range held {
				fmt.Fprintf(w, "planx pre-push: warning: rollback commit %s of run %s holds the uncommitted work found in the tree before the run (%s): this push publishes it with the run\n",
					h.Commit.Short(), h.RunID, strings.Join(h.Files, ", "))
			}
		}
	}
	if err != nil {
		fmt.Fprintf(w, "planx pre-push: warning: could not check the push for rollback commits holding uncommitted work: %v\n", err)
	}
}
