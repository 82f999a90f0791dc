package command

import (
	"context"
	"fmt"
	"io"

	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/record"
	"github.com/planx-dev/planx/review"
	"github.com/urfave/cli/v3"
)

// showOptions are `planx show`'s arguments.
type showOptions struct {
	Dir  string
	What string // a task id (T003) or a revision
	JSON bool
}

func newShowCmd(stdio *IO, g *globalOptions) *cli.Command {
	o := &showOptions{}
	return &cli.Command{
		Name:      "show",
		Usage:     "show one task's commit: trailers, gates with their output note, and its execution log section",
		ArgsUsage: "T003|LABEL|COMMIT",
		Description: describe(`show T003 looks the task up in the most recent run reachable from HEAD; show COMMIT takes
any revision naming a task commit; show 1.2 takes the task the plan itself calls 1.2 (a Kiro
or task-master ID, kept in the commit's Planx-Label trailer) when no revision has that name.
It prints the commit's Planx-* trailers, the gates it passed, the gate output note
(refs/notes/planx) when present and the task's section of the execution log. A task or
commit that does not exist exits 8.`,
			"planx show T003",
			"planx show HEAD~2",
			"planx show 1.2",
			"planx show --json T001 | jq .gates"),
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print one JSON object", Destination: &o.JSON}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.NArg() != 1 {
				return fmt.Errorf("%w: show takes one task id, task label or commit (planx show T003)", errUsage)
			}
			o.Dir, o.What = g.dir, cmd.Args().First()
			return dispatch(ctx, g, *o, stdio, runShow)
		},
	}
}

type showReport struct {
	review.TaskCommit
	Run    string            `json:"run"`
	Status record.TaskStatus `json:"status"`
	Note   *string           `json:"note"`
	// NoteRejected says why the note on the commit is not shown: it was
	// written for another commit or tree, or contradicts the trailers.
	NoteRejected string `json:"note_rejected,omitempty"`
	LogPath      string `json:"log_path"`
	LogSection   string `json:"log_section"`
}

func runShow(ctx context.Context, o showOptions, stdio *IO) error {
	repo, err := openRepo(ctx, o.Dir)
	if err != nil {
		return err
	}
	var rep showReport
	if rep.TaskCommit, rep.Run, err = review.Lookup(ctx, repo, o.What); err != nil {
		return err
	}
	rep.Status = rep.TaskCommit.Status()
	if rep.Note, rep.NoteRejected, err = gateNote(ctx, repo, rep.TaskCommit); err != nil {
		return err
	}
	if rep.LogPath, rep.LogSection, err = review.LogSection(ctx, repo, rep.TaskCommit); err != nil {
		return err
	}
	if o.JSON {
		err = printReviewJSON(stdio.Out, rep)
	} else {
		writeShowText(stdio.Out, rep)
	}
	if err == nil && rep.NoteRejected != "" {
		err = fmt.Errorf("show %s: %w: %s", rep.Commit.Short(), review.ErrUnverified, rep.NoteRejected)
	}
	return err
}

func writeShowText(w io.Writer, r showReport) {
	fmt.Fprintf(w, "%s\n\n", r.Subject)
	fmt.Fprintf(w, "commit    %s\n", r.Commit)
	if r.Label != "" {
		fmt.Fprintf(w, "task      %s\n", taskName(r.TaskCommit))
	}
	fmt.Fprintf(w, "run       %s\n", r.Run)
	fmt.Fprintf(w, "plan      %s\n", r.Plan)
	fmt.Fprintf(w, "status    %s\n", r.Status)
	fmt.Fprintf(w, "executor  %s\n", r.Executor)
	if r.Sandbox != "" {
		fmt.Fprintf(w, "sandbox   %s\n", r.Sandbox)
	}
	fmt.Fprintf(w, "task hash %s\n", r.TaskHash)
	if r.DurationMS != nil {
		fmt.Fprintf(w, "duration  %ds (since the run's previous commit)\n", *r.DurationMS/1000)
	}
	fmt.Fprintf(w, "gates     %s\n", gateSummary(r.Gates))
	for _, p := range r.Problems {
		fmt.Fprintf(w, "problem   %s\n", p)
	}
	if r.NoteRejected != "" {
		fmt.Fprintf(w, "\ngate output note rejected: %s\n", r.NoteRejected)
	}
	if r.Note != nil {
		fmt.Fprintf(w, "\ngate output (git notes --ref=%s show %s):\n%s\n", record.NoteRef, r.Commit.Short(), textsafe.Indent(*r.Note, "  "))
	}
	switch {
	case r.LogPath == "":
		fmt.Fprintln(w, "\nno execution log changed by this commit")
	case r.LogSection == "":
		fmt.Fprintf(w, "\nexecution log %s has no section for %s\n", r.LogPath, r.ID)
	default:
		fmt.Fprintf(w, "\nexecution log %s:\n\n%s", r.LogPath, r.LogSection)
	}
}
