package command

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/review"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
	"github.com/urfave/cli/v3"
)

// logOptions are `planx log`'s arguments.
type logOptions struct {
	Dir     string
	Plan    string // as given; resolved against Dir
	JSON    bool
	MaxRuns int    // 0: all
	Run     string // a run id or a prefix of one: only the runs it starts
	Notes   bool   // print gate-output notes whole
	All     bool   // read the whole history, not only back to the oldest run refs/planx/runs records
}

func newLogCmd(stdio *IO, g *globalOptions) *cli.Command {
	o := &logOptions{}
	return &cli.Command{
		Name:      "log",
		Usage:     "list planx runs, newest first, with each task's commit, status and gates, read from commit trailers",
		ArgsUsage: "[PLAN]",
		Description: describe(`log reads the first-parent history of HEAD: it needs nothing but the commits, so it works
on a fresh clone. It stops at the oldest run this clone recorded in refs/planx/runs/ (planx run
writes one ref per run), so years of history before planx are not read; --all reads it all
(a clone without those refs always does). With PLAN only that plan's runs are listed, with
--run only the runs whose id starts with ID (as planx show --run takes it).
JSON output follows docs/schema/log.json.`,
			"planx log",
			"planx log -n 1 memory-bank/plan/x.md",
			"planx log --notes --all",
			"planx log --json | jq '.runs[0].tasks[].status'"),
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object (docs/schema/log.json)", Destination: &o.JSON},
			&cli.IntFlag{Name: "max-runs", Aliases: []string{"n"}, Usage: "list at most `N` runs (reading stops there); 0 means no limit", Destination: &o.MaxRuns},
			&cli.BoolFlag{Name: "notes", Usage: "print each task's gate output note (refs/notes/planx) whole", Destination: &o.Notes},
			&cli.StringFlag{Name: "run", Usage: "list only the runs whose id starts with `ID`", Destination: &o.Run},
			&cli.BoolFlag{Name: "all", Usage: "read the whole history, also before the oldest run recorded in refs/planx/runs/ (runs made in other clones)", Destination: &o.All},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.NArg() > 1 {
				return fmt.Errorf("%w: log takes at most one PLAN argument", errUsage)
			}
			if o.MaxRuns < 0 {
				return fmt.Errorf("%w: --max-runs must not be negative", errUsage)
			}
			o.Dir, o.Plan = g.dir, cmd.Args().First()
			return dispatch(ctx, g, *o, stdio, runLog)
		},
	}
}

// logTask is a task commit as `planx log --json` prints it.
type logTask struct {
	review.TaskCommit
	Status record.TaskStatus `json:"status"`
	Note   *string           `json:"note"` // gate output note; null when none
}

type logRun struct {
	review.Run
	Tasks []logTask `json:"tasks"`
	// Cost is the sum of the tasks' Planx-Cost (nil: none has one).
	Cost *record.Cost `json:"cost,omitempty"`
}

type logReport struct {
	Runs     []logRun `json:"runs"`
	Warnings []string `json:"warnings"`
	// ReadTo is the oldest commit read when the history was read only back
	// to the oldest recorded run (see Indexed); absent when all was read.
	ReadTo gitops.SHA `json:"read_to,omitempty"`
}

func runLog(ctx context.Context, o logOptions, stdio *IO) error {
	repo, err := openRepo(ctx, o.Dir)
	if err != nil {
		return err
	}
	plan := reviewPlanArg(repo, o.Dir, o.Plan)
	var runs []review.Run
	var readTo gitops.SHA
	switch {
	case o.MaxRuns > 0 && o.Run == "":
		runs, err = review.Recent(ctx, repo, "", plan, o.MaxRuns)
	case o.All:
		runs, err = review.Runs(ctx, repo, "", plan)
	default:
		runs, readTo, err = review.Indexed(ctx, repo, "", plan)
	}
	if o.Run != "" {
		runs = review.RunsWithPrefix(runs, o.Run)
		if o.MaxRuns > 0 && len(runs) > o.MaxRuns {
			runs = runs[:o.MaxRuns]
		}
	}
	rep := logReport{Runs: []logRun{}, Warnings: []string{}, ReadTo: readTo}
	var shallow *review.ShallowError
	if errors.As(err, &shallow) {
		// Listing what history there is still helps; say what is missing.
		rep.Warnings = append(rep.Warnings, shallow.Error())
	} else if err != nil {
		return err
	}
	for _, r := range runs {
		lr := logRun{Run: r, Tasks: []logTask{}, Cost: r.Cost()}
		for _, t := range r.Tasks {
			lt := logTask{TaskCommit: t, Status: t.Status()}
			// A note that is not planx's for this commit is not shown as its output.
			if lt.Note, _, err = gateNote(ctx, repo, t); err != nil {
				return err
			}
			lr.Tasks = append(lr.Tasks, lt)
		}
		rep.Runs = append(rep.Runs, lr)
	}
	if o.JSON {
		return printReviewJSON(stdio.Out, rep)
	}
	writeLogText(stdio.Out, rep, o.Notes)
	if rep.ReadTo != "" {
		fmt.Fprintf(stdio.Err, "planx: history read back to %s, the oldest run recorded in refs/planx/runs/; --all reads older history too\n", rep.ReadTo.Short())
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(stdio.Err, "planx: warning: %s\n", w)
	}
	return nil
}

func writeLogText(w io.Writer, rep logReport, notes bool) {
	if len(rep.Runs) == 0 {
		fmt.Fprintln(w, "no planx runs in the history of HEAD")
	}
	for i, r := range rep.Runs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		rb := "rollback commit not found"
		if r.Rollback != "" {
			rb = "rollback " + r.Rollback.Short()
		}
		fmt.Fprintf(w, "run %s  %s  %s", r.ID, r.Plan, rb)
		if !r.Started.IsZero() {
			fmt.Fprintf(w, "  %s", r.Started.Format("2006-01-02 15:04:05 -0700"))
		}
		fmt.Fprintf(w, "  %d task(s)\n", len(r.Tasks))
		for _, p := range r.Problems {
			fmt.Fprintf(w, "  ! %s\n", p)
		}
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, t := range r.Tasks {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", taskName(t.TaskCommit), t.Commit.Short(), t.Status, gateSummary(t.Gates), taskTitle(t.TaskCommit))
		}
		tw.Flush()
		for _, t := range r.Tasks {
			if t.Note == nil {
				continue
			}
			if !notes {
				fmt.Fprintf(w, "  %s: gate output note, %d line(s): planx show %s\n", taskName(t.TaskCommit), strings.Count(*t.Note, "\n"), t.Commit.Short())
				continue
			}
			fmt.Fprintf(w, "  %s gate output:\n%s\n", taskName(t.TaskCommit), textsafe.Indent(*t.Note, "    "))
		}
		for _, t := range r.Tasks {
			if t.Finished != "" {
				fmt.Fprintf(w, "  %s: finished %s\n", taskName(t.TaskCommit), textsafe.Line(t.Finished))
			}
		}
		if r.Cost != nil {
			fmt.Fprintf(w, "  cost: %s (the sum of the agents' reports)\n", r.Cost)
		}
		if len(r.Skipped) > 0 {
			fmt.Fprintf(w, "  skipped: %s\n", strings.Join(r.Skipped, ", "))
		}
		for _, f := range r.Finished {
			fmt.Fprintf(w, "  %s\n", textsafe.Line(f))
		}
	}
}

// gateSummary renders gates as their trailers do: "test=pass 12ms, vet=fail 3ms".
func gateSummary(gs []review.Gate) string {
	if len(gs) == 0 {
		return "no gates"
	}
	var s []string
	for _, g := range gs {
		v := "fail"
		if g.Passed {
			v = "pass"
		}
		s = append(s, fmt.Sprintf("%s=%s %dms", g.Name, v, g.DurationMS))
	}
	return strings.Join(s, ", ")
}

func taskTitle(t review.TaskCommit) string {
	return textsafe.Shorten(strings.TrimPrefix(t.Subject, t.ID+": "), 60)
}

// openRepo opens the repository at dir (-C; "" for the current directory).
func openRepo(ctx context.Context, dir string) (*gitops.Repo, error) {
	if dir == "" {
		dir = "."
	}
	return gitops.Open(ctx, dir)
}

// gateNote is the gate output note of a task commit (refs/notes/planx),
// nil when it has none or when it was not written for this commit; rejected
// then says why (review.NoteProblem).
func gateNote(ctx context.Context, repo *gitops.Repo, t review.TaskCommit) (note *string, rejected string, err error) {
	b, err := repo.Notes().Show(ctx, record.NoteRef, t.Commit)
	if b == nil || err != nil {
		return nil, "", err
	}
	if rejected = review.NoteProblem(b, t); rejected != "" {
		return nil, rejected, nil
	}
	s := string(b)
	return &s, "", nil
}

// reviewPlanArg turns a plan argument into the repo-relative path the Refs
// trailer holds. A path that exists is taken relative to dir (as planx run
// does); anything else is assumed to be repo-relative already, so a plan
// deleted since its run can still be named.
func reviewPlanArg(repo *gitops.Repo, dir, plan string) string {
	if plan == "" {
		return ""
	}
	p := plan
	if !filepath.IsAbs(p) {
		base := dir
		if base == "" {
			base = "."
		}
		p = filepath.Join(base, p)
	}
	if _, err := os.Stat(p); err == nil {
		if rel, err := repo.Rel(p); err == nil {
			return rel
		}
	}
	return filepath.ToSlash(filepath.Clean(plan))
}

func printReviewJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// taskName is how a person reads a task commit's task: its plan's own ID
// beside planx's, from the Planx-Label trailer.
func taskName(t review.TaskCommit) string {
	return textsafe.Line(planparse.DisplayID(planparse.TaskID(t.ID), t.Label))
}
