package command

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/planx-dev/planx/planparse"
	"github.com/urfave/cli/v3"
)

// validateOptions is what `planx validate` was asked to do.
type validateOptions struct {
	Path   string
	JSON   bool
	Format planparse.Format
}

func newValidateCmd(stdio *IO, g *globalOptions) *cli.Command {
	o := &validateOptions{}
	format := "auto"
	return &cli.Command{
		Name:      "validate",
		Usage:     "parse a plan and report its tasks and problems",
		ArgsUsage: "PLAN",
		Description: describe(`validate prints the tasks planx would run (ID, label, status, dependencies, title)
and every diagnostic as path:line: severity: message (hint). It exits 4 when the plan
has errors; warnings alone exit 0. It reads only the plan: no repository is needed.`,
			"planx validate memory-bank/plan/x.md",
			"planx validate --format speckit specs/001/tasks.md",
			"planx validate --json plan.md | jq '.diagnostics'"),
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object instead of a table", Destination: &o.JSON},
			&cli.StringFlag{Name: "format", Usage: "plan dialect: auto, " + formatNames(), Value: format, Destination: &format},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.NArg() != 1 {
				return fmt.Errorf("%w: validate takes exactly one plan file, got %d arguments", errUsage, cmd.NArg())
			}
			var err error
			if o.Format, err = planparse.ParseFormat(format); err != nil {
				return fmt.Errorf("%w: --format: %v", errUsage, err)
			}
			o.Path = inDir(g.dir, cmd.Args().First())
			return dispatch(ctx, g, *o, stdio, runValidate)
		},
	}
}

// inDir resolves a relative path given on the command line against -C DIR,
// as git -C does.
func inDir(dir, p string) string {
	if dir == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

func formatNames() string {
	var s []string
	for _, f := range planparse.Formats() {
		s = append(s, string(f))
	}
	return strings.Join(s, ", ")
}

// runValidate parses opts.Path and reports it. The returned error wraps
// planparse.ErrInvalid (or ErrUnreadable) when the plan has errors.
func runValidate(_ context.Context, opts validateOptions, stdio *IO) error {
	plan, err := planparse.ParseFile(opts.Path, planparse.Options{Format: opts.Format})
	if err != nil {
		return err
	}
	if opts.JSON {
		if err := writeValidateJSON(stdio.Out, plan); err != nil {
			return fmt.Errorf("validate %s: %w", opts.Path, err)
		}
	} else {
		writeValidateText(stdio.Out, plan)
	}
	if n := countErrors(plan); n > 0 {
		return fmt.Errorf("validate %s: %w: %d error(s)", opts.Path, planparse.ErrInvalid, n)
	}
	return nil
}

func countErrors(p *planparse.Plan) int {
	n := 0
	for _, d := range p.Diagnostics {
		if d.Severity == planparse.SeverityError {
			n++
		}
	}
	return n
}

// validateTask is the part of a task `validate --json` reports; bodies and
// byte offsets stay out of the output.
type validateTask struct {
	ID        planparse.TaskID   `json:"id"`
	Label     string             `json:"label"`
	Title     string             `json:"title"`
	Status    planparse.Status   `json:"status"`
	Parallel  bool               `json:"parallel"`
	DependsOn []planparse.TaskID `json:"depends_on"`
	Files     []planparse.File   `json:"files"`
	Line      int                `json:"line"`
	Steps     []planparse.Step   `json:"steps"`
}

type validateReport struct {
	Path        string                 `json:"path"`
	Title       string                 `json:"title"`
	Topic       string                 `json:"topic"`
	Format      planparse.Format       `json:"format"`
	Tasks       []validateTask         `json:"tasks"`
	Diagnostics []planparse.Diagnostic `json:"diagnostics"`
}

func writeValidateJSON(w io.Writer, p *planparse.Plan) error {
	r := validateReport{Path: p.Path, Title: p.Title, Topic: p.Topic, Format: p.Format,
		Tasks: []validateTask{}, Diagnostics: p.Diagnostics}
	if r.Diagnostics == nil {
		r.Diagnostics = []planparse.Diagnostic{}
	}
	for _, t := range p.Tasks {
		vt := validateTask{ID: t.ID, Label: t.Label, Title: t.Title, Status: t.Status, Parallel: t.Parallel,
			DependsOn: t.DependsOn, Files: t.Files, Line: t.Line, Steps: t.Steps}
		if vt.DependsOn == nil {
			vt.DependsOn = []planparse.TaskID{}
		}
		if vt.Files == nil {
			vt.Files = []planparse.File{}
		}
		if vt.Steps == nil {
			vt.Steps = []planparse.Step{}
		}
		r.Tasks = append(r.Tasks, vt)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

func writeValidateText(w io.Writer, p *planparse.Plan) {
	fmt.Fprintf(w, "%s: %s (format %s, topic %s)\n", p.Path, p.Title, p.Format, p.Topic)
	if len(p.Tasks) > 0 {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tLABEL\tSTATUS\tDEPS\tTITLE")
		for _, t := range p.Tasks {
			deps := "-"
			if len(t.DependsOn) > 0 {
				ds := make([]string, len(t.DependsOn))
				for i, d := range t.DependsOn {
					ds[i] = string(d)
				}
				deps = strings.Join(ds, ",")
			}
			label := t.Label
			if label == "" {
				label = "-"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", t.ID, label, t.Status, deps, oneLine(t.Title, 72))
		}
		tw.Flush()
	}
	errs, warns := 0, 0
	for _, d := range p.Diagnostics {
		switch d.Severity {
		case planparse.SeverityError:
			errs++
		case planparse.SeverityWarning:
			warns++
		}
		fmt.Fprintf(w, "%s:%d: %s: %s", p.Path, d.Line, d.Severity, d.Message)
		if d.Hint != "" {
			fmt.Fprintf(w, " (%s)", d.Hint)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%d task(s), %d error(s), %d warning(s)\n", len(p.Tasks), errs, warns)
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}
