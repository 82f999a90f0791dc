package command

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/review"
	"github.com/planx-dev/planx/planparse"
)

// verifyGitHub is where `planx verify` reports on GitHub Actions
// (GITHUB_ACTIONS=true): its annotations go to Annot (stderr, so that
// stdout stays the report or the JSON; the runner reads workflow commands
// from both), its step summary to the file Summary names.
type verifyGitHub struct {
	Annot   io.Writer
	Summary string // $GITHUB_STEP_SUMMARY, "" for none
}

// githubOf is the GitHub reporting of a verify in this environment, nil
// off GitHub Actions.
func githubOf(stdio *IO) *verifyGitHub {
	if os.Getenv("GITHUB_ACTIONS") != "true" {
		return nil
	}
	return &verifyGitHub{Annot: stdio.Err, Summary: os.Getenv("GITHUB_STEP_SUMMARY")}
}

// report writes an annotation per finding and the step summary of rep.
func (g *verifyGitHub) report(ctx context.Context, repo *gitops.Repo, rep review.Report) error {
	lines := taskLines(ctx, repo, rep)
	for _, f := range rep.Findings {
		fmt.Fprintln(g.Annot, annotation(f, lines[f.Run+"\x00"+f.Task]))
	}
	if g.Summary == "" {
		return nil
	}
	fd, err := os.OpenFile(g.Summary, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("verify: the step summary: %w", err)
	}
	_, err = io.WriteString(fd, verifySummary(rep))
	if cerr := fd.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("verify: the step summary: %w", err)
	}
	return nil
}

// place is where an annotation points: a plan file and a task's line in it.
type place struct {
	file string
	line int
}

// taskLines finds, for each finding's run and task, the plan file of the
// run and the task's first line in the plan as the tip has it: the line
// GitHub shows the annotation on in a pull request's files. A plan the tip
// lacks or cannot be parsed leaves the file alone named (or nothing).
func taskLines(ctx context.Context, repo *gitops.Repo, rep review.Report) map[string]place {
	plans := map[string]string{}
	for _, r := range rep.Runs {
		plans[r.ID] = r.Plan
	}
	parsed := map[string]*planparse.Plan{}
	out := map[string]place{}
	for _, f := range rep.Findings {
		path := plans[f.Run]
		if path == "" {
			continue
		}
		p, seen := parsed[path]
		if !seen && rep.Tip != "" {
			if src, err := repo.History().ShowFile(ctx, rep.Tip, path); err == nil {
				p, _ = planparse.Parse(path, src, planparse.Options{})
			}
			parsed[path] = p
		}
		pl := place{file: path}
		if t := planTask(p, f.Task); t != nil {
			pl.line = t.Line
		}
		out[f.Run+"\x00"+f.Task] = pl
	}
	return out
}

func planTask(p *planparse.Plan, id string) *planparse.Task {
	if p == nil || id == "" {
		return nil
	}
	return p.Task(planparse.TaskID(id))
}

// annotation is f as a GitHub Actions workflow command, escaped as GitHub
// documents them.
func annotation(f review.Finding, at place) string {
	kind := "warning"
	if f.Severity == review.SeverityError {
		kind = "error"
	}
	props := []string{"title=" + ghProp("planx verify: "+f.Kind)}
	if at.file != "" {
		props = append(props, "file="+ghProp(at.file))
		if at.line > 0 {
			props = append(props, fmt.Sprintf("line=%d", at.line))
		}
	}
	msg := f.Message
	if f.Task != "" && !strings.Contains(msg, f.Task) {
		msg = f.Task + ": " + msg
	}
	return "::" + kind + " " + strings.Join(props, ",") + "::" + ghData(msg)
}

// verifySummary is the step summary: each task commit checked, with its
// evidence and gates, and the findings' count.
func verifySummary(rep review.Report) string {
	var b strings.Builder
	b.WriteString("### planx verify\n\n")
	if len(rep.Runs) == 0 {
		b.WriteString("No planx task commits to check.\n\n")
	}
	for _, r := range rep.Runs {
		fmt.Fprintf(&b, "Run `%s` of `%s`:\n\n| task | commit | evidence | gates | ok |\n|---|---|---|---|---|\n", r.ID, mdCell(r.Plan))
		for _, t := range r.Tasks {
			ok := "yes"
			if !t.OK {
				ok = "**no**"
			}
			fmt.Fprintf(&b, "| %s | `%s` %s | %s | %s | %s |\n", mdCell(planparse.DisplayID(planparse.TaskID(t.ID), t.Label)),
				t.Commit.Short(), mdCell(t.Subject), t.Evidence, mdCell(gateSummary(t.Gates)), ok)
		}
		b.WriteString("\n")
	}
	errs := 0
	for _, f := range rep.Findings {
		if f.Severity == review.SeverityError {
			errs++
		}
	}
	fmt.Fprintf(&b, "%d error(s), %d warning(s).\n", errs, len(rep.Findings)-errs)
	return b.String()
}

// mdCell keeps s on one line of a markdown table.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ").Replace(s)
}

// ghData and ghProp escape a workflow command's message and property.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
