package command

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/review"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/urfave/cli/v3"
)

// showOptions are `planx show`'s arguments.
type showOptions struct {
	Dir  string
	What string // a task id (T003) or a revision
	Plan string // as given; resolved against Dir
	Run  string // a run id or a prefix of one
	JSON bool
}

func newShowCmd(stdio *IO, g *globalOptions) *cli.Command {
	o := &showOptions{}
	return &cli.Command{
		Name:          "show",
		ShellComplete: completeTasks(g),
		Usage:         "show one task's commit: trailers, gates with their output note, and its execution log section",
		ArgsUsage:     "T003|LABEL|COMMIT",
		Description: describe(`show T003 takes the newest commit of T003 among the runs reachable from HEAD; show COMMIT
takes any revision naming a task commit; show 1.2 takes the task the plan itself calls 1.2 (a
Kiro or task-master ID, kept in the commit's Planx-Label trailer) when no revision has that
name. Task ids are per plan, and a plan run again commits its tasks again: when other runs
have a commit for the task too, show says which on stderr (JSON: other_runs) and how to
choose, as git warns of an ambiguous ref name. --plan keeps the runs of one plan, --run one
run (a prefix of its id that no other run shares; exit 2 otherwise). It
prints the commit's Planx-* trailers, the gates it passed, the gate output note
(refs/notes/planx) when present and the task's section of the execution log. A task or
commit that does not exist exits 8.`,
			"planx show T003",
			"planx show --plan memory-bank/plan/x.md 1.2",
			"planx show --run 20261121-1015 T003",
			"planx show --json HEAD~2 | jq .gates"),
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object", Destination: &o.JSON},
			&cli.StringFlag{Name: "plan", Usage: "look for the task in the runs of plan `PATH` only", Destination: &o.Plan},
			&cli.StringFlag{Name: "run", Usage: "look for the task in run `ID` only (a unique prefix of its id will do)", Destination: &o.Run},
		},
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
	Run string `json:"run"`
	// OtherRuns are the other runs show could have taken the task's commit
	// from: --plan or --run chooses among them.
	OtherRuns []otherRun        `json:"other_runs"`
	Status    record.TaskStatus `json:"status"`
	Note      *string           `json:"note"`
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
	if (o.Plan != "" || o.Run != "") && !review.IsTaskID(o.What) {
		sha, err := repo.Refs().Resolve(ctx, o.What)
		if err != nil {
			return err
		}
		if sha != "" {
			return fmt.Errorf("%w: --plan and --run choose among the commits of a task (planx show --run ID T003); %s names one commit already", errUsage, o.What)
		}
	}
	rep := showReport{OtherRuns: []otherRun{}}
	q := review.TaskQuery{ID: o.What, Plan: reviewPlanArg(repo, o.Dir, o.Plan), Run: o.Run}
	f, err := review.Lookup(ctx, repo, q)
	if f.Task == nil {
		return err
	}
	// A shallow clone's warning does not matter once the commit is found.
	rep.TaskCommit, rep.Run = *f.Task, f.Run.ID
	for _, other := range f.Others {
		rep.OtherRuns = append(rep.OtherRuns, otherRun{Run: other.Run.ID, Plan: other.Run.Plan, Commit: other.Task.Commit})
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
		writeOtherRuns(stdio.Err, rep)
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
	if r.Cost != nil {
		fmt.Fprintf(w, "cost      %s\n", r.Cost)
	}
	if r.Finished != "" {
		fmt.Fprintf(w, "finished  %s\n", textsafe.Line(r.Finished))
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

// otherRun is a run that has a commit for the task too.
type otherRun struct {
	Run    string     `json:"run"`
	Plan   string     `json:"plan"`
	Commit gitops.SHA `json:"commit"`
}

// writeOtherRuns tells which other runs have a commit for the task and how
// to show one of them: --plan when they are of other plans, --run else.
func writeOtherRuns(w io.Writer, r showReport) {
	if len(r.OtherRuns) == 0 {
		return
	}
	how := "--run ID"
	var runs []string
	for _, o := range r.OtherRuns {
		runs = append(runs, fmt.Sprintf("run %s of %s (%s)", o.Run, o.Plan, o.Commit.Short()))
		if o.Plan != r.Plan {
			how = "--plan PATH or --run ID"
		}
	}
	fmt.Fprintf(w, "planx: %s has commits in %s too: %s; this is the newest, of run %s of %s; choose with %s\n",
		r.ID, textsafe.Count(len(runs), "other run"), strings.Join(runs, ", "), r.Run, r.Plan, how)
}
