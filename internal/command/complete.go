package command

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planx-dev/planx/internal/review"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/urfave/cli/v3"
)

// planLayouts are where plans live in the layouts planx reads, for shell
// completion: a word that matches none of them falls back to file names
// (the completion scripts ask the shell for its default).
func planLayouts() []string {
	return []string{
		"memory-bank/plan/*.md",
		"specs/*/tasks.md",
		".kiro/specs/*/tasks.md",
		".taskmaster/tasks/tasks.json",
		"docs/plans/*.md",
		"docs/superpowers/plans/*.md",
		"plans/*.md",
	}
}

// completePlans completes a PLAN argument with the plans found in the
// current directory (or -C's), and a word starting with a dash with the
// command's flags as urfave/cli would.
func completePlans(g *globalOptions) cli.ShellCompleteFunc {
	return func(ctx context.Context, cmd *cli.Command) {
		if args := cmd.Args().Slice(); len(args) > 0 && strings.HasPrefix(args[len(args)-1], "-") {
			cli.DefaultCompleteWithFlags(ctx, cmd)
			return
		}
		for _, p := range plansIn(g.dir) {
			fmt.Fprintln(cmd.Root().Writer, p)
		}
	}
}

// plansIn lists the plan files under dir in planLayouts, relative to dir.
func plansIn(dir string) []string {
	if dir == "" {
		dir = "."
	}
	var found []string
	for _, pat := range planLayouts() {
		m, _ := filepath.Glob(filepath.Join(dir, filepath.FromSlash(pat)))
		for _, p := range m {
			if rel, err := filepath.Rel(dir, p); err == nil {
				found = append(found, filepath.ToSlash(rel))
			}
		}
	}
	slices.Sort(found)
	return slices.Compact(found)
}

// completeTasks completes a task argument with the tasks of the recent
// runs reachable from HEAD: their ids, and the plan's own labels, with
// the task's subject as the description.
func completeTasks(g *globalOptions) cli.ShellCompleteFunc {
	return func(ctx context.Context, cmd *cli.Command) {
		if args := cmd.Args().Slice(); len(args) > 0 && strings.HasPrefix(args[len(args)-1], "-") {
			cli.DefaultCompleteWithFlags(ctx, cmd)
			return
		}
		repo, err := openRepo(ctx, g.dir)
		if err != nil {
			return
		}
		runs, _ := review.Recent(ctx, repo, "", "", 5)
		seen := map[string]bool{}
		for _, r := range runs {
			for _, t := range r.Tasks {
				for _, name := range []string{t.ID, t.Label} {
					if name != "" && !seen[name] {
						seen[name] = true
						fmt.Fprintf(cmd.Root().Writer, "%s:%s\n", name, textsafe.Line(t.Subject))
					}
				}
			}
		}
	}
}
