package command

import (
	"context"
	"fmt"
	"time"

	"github.com/planx-dev/planx/internal/run/rewind"
	"github.com/urfave/cli/v3"
)

// pruneOptions are `planx prune`'s flags.
type pruneOptions struct {
	dir       string
	olderThan time.Duration
	dryRun    bool
}

func newPruneCmd(stdio *IO, g *globalOptions) *cli.Command {
	o := &pruneOptions{}
	return &cli.Command{
		Name:  "prune",
		Usage: "remove the refs and output files of runs that ended long ago, and the slots runs keep",
		Description: describe(`Every run keeps refs under refs/planx/runs/<run>/: its rollback commit (base), and what it
kept of your work along the way (stop snapshots, kept index states, the work of parallel tasks, an
aborted run's commits and work tree), plus its step and gate output under .git/planx/runs/<run>/.
prune removes those of the runs older than --older-than (by the time in the run's id), except each
run's base ref, which points into your branch's history and holds nothing of its own. The run in
progress is never touched. The commits on your branch, their trailers and notes stay; git gc then
frees what only the removed refs held.

prune also removes the slots runs keep between them under .git/planx/slots/ (the linked work trees
of parallel waves and clean checkouts, with what worktree_setup installed in them), and says how
many and the disk they took (as du counts it, git's records of them included): this work tree's,
unless a run is in progress in it, and those of linked work trees that are gone. The next run makes its slots again.`,
			"planx prune --dry-run",
			"planx prune",
			"planx prune --older-than 0   # every run that is not in progress"),
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "older-than", Value: rewind.DefaultPruneAge, Usage: "prune runs at least this old (0: every run not in progress)", Destination: &o.olderThan},
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "list what would be removed, remove nothing", Destination: &o.dryRun},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			o.dir = g.dir
			return dispatch(ctx, g, *o, stdio, runPrune)
		},
	}
}

func runPrune(ctx context.Context, o pruneOptions, stdio *IO) error {
	repo, err := openRepo(ctx, o.dir)
	if err != nil {
		return err
	}
	res, err := rewind.Prune(ctx, repo, rewind.PruneOptions{OlderThan: o.olderThan, DryRun: o.dryRun})
	if res != nil {
		verb := "removed"
		if o.dryRun {
			verb = "would remove"
		}
		for _, r := range res.Refs {
			fmt.Fprintf(stdio.Out, "planx: %s %s\n", verb, r)
		}
		for _, d := range res.Dirs {
			fmt.Fprintf(stdio.Out, "planx: %s %s/\n", verb, d)
		}
		if res.Slots > 0 {
			fmt.Fprintf(stdio.Out, "planx: %s %d slot(s) of parallel waves and clean checkouts (%.1f MB)\n", verb, res.Slots, float64(res.SlotBytes)/1e6)
		}
		switch {
		case len(res.Runs) == 0:
			fmt.Fprintf(stdio.Out, "planx: no run older than %s to prune\n", o.olderThan)
		case !o.dryRun:
			fmt.Fprintf(stdio.Out, "planx: pruned %d run(s); `git gc` frees what only their refs held\n", len(res.Runs))
		}
	}
	return err
}
