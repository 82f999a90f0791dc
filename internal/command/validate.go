package command

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/run/runplan"
	"github.com/planx-dev/planx/internal/textsafe"
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
		Name:          "validate",
		ShellComplete: completePlans(g),
		Usage:         "parse a plan and report its tasks and problems",
		ArgsUsage:     "PLAN",
		Description: describe(`validate prints the tasks planx would run (ID, label, status, dependencies, title)
and every diagnostic as path:line: severity: message (hint). It exits 4 when the plan
has errors (or .planx.yaml has); warnings alone exit 0. It reads the plan and the
repository's .planx.yaml (outside a repository the one beside the plan): no repository is needed.`,
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

// runValidate parses opts.Path and the repository's .planx.yaml and
// reports them. The returned error wraps planparse.ErrInvalid (or
// ErrUnreadable) when the plan or the config has errors. It needs no git
// repository: outside one the config is looked for beside the plan.
func runValidate(ctx context.Context, opts validateOptions, stdio *IO) error {
	if err := planparse.CheckPath(opts.Path); err != nil {
		return err
	}
	// .planx.yaml first: its agent or executor is where a plan without
	// front matter (a tasks.json) hands the tasks that have no steps.
	cfg, cfgErr := gates.LoadConfig(configRoot(ctx, opts.Path))
	plan, err := planparse.ParseFile(opts.Path, planparse.Options{Format: opts.Format, Agent: cfg.Agent, Executor: cfg.Executor})
	if err != nil {
		return err
	}
	if cfgErr == nil {
		// A reviewer that is the plan's own agent, as a run would refuse it.
		cfgErr = (&runplan.Setup{Plan: plan, Config: cfg}).RefuseSameReviewer()
	}
	resolved := resolveGates(cfg, plan)
	if opts.JSON {
		if err := writeValidateJSON(stdio.Out, plan, resolved, cfgErr); err != nil {
			return fmt.Errorf("validate %s: %w", opts.Path, err)
		}
	} else {
		writeValidateText(stdio.Out, plan, cfgErr)
	}
	n := countErrors(plan)
	if cfgErr != nil {
		n++
	}
	if n > 0 {
		return fmt.Errorf("validate %s: %w: %d error(s)", opts.Path, planparse.ErrInvalid, n)
	}
	return nil
}

// configRoot is where .planx.yaml is looked for: the root of the git
// repository holding the plan, else the plan's own directory.
func configRoot(ctx context.Context, planPath string) string {
	dir := filepath.Dir(planPath)
	if repo, err := gitops.Open(ctx, dir); err == nil {
		return repo.Root
	}
	return dir
}

// resolveGates lists, per task, the gates a run would run after it: the
// config's, the plan's and the task's selection, final gates after the last.
func resolveGates(cfg gates.Config, p *planparse.Plan) map[planparse.TaskID][]string {
	fromPlan, err := gates.FromPlan(p.Gates)
	if err != nil {
		fromPlan = nil // reported as the plan's own diagnostics
	}
	all := gates.Merge(cfg.Gates, fromPlan, nil)
	order := p.Order()
	lastLeaf := planparse.TaskID("")
	for _, t := range order {
		if len(t.Children) == 0 {
			lastLeaf = t.ID
		}
	}
	out := map[planparse.TaskID][]string{}
	for _, t := range order {
		names := []string{}
		if len(t.Children) == 0 {
			for _, g := range gates.Select(all, t.Gates, t.ID == lastLeaf || t.GatesOnly()) {
				names = append(names, g.Name)
			}
		}
		out[t.ID] = names
	}
	return out
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
// byte offsets stay out of the output (docs/schema/validate.json).
type validateTask struct {
	ID         planparse.TaskID   `json:"id"`
	Label      string             `json:"label"`
	Title      string             `json:"title"`
	Status     planparse.Status   `json:"status"`
	Parallel   bool               `json:"parallel"`
	Parent     planparse.TaskID   `json:"parent"`
	Children   []planparse.TaskID `json:"children"`
	Optional   bool               `json:"optional"`
	Checkpoint bool               `json:"checkpoint"`
	Executor   string             `json:"executor"`
	DependsOn  []planparse.TaskID `json:"depends_on"`
	Files      []planparse.File   `json:"files"`
	Acceptance []string           `json:"acceptance"`
	Gates      []string           `json:"gates"`
	Line       int                `json:"line"`
	Steps      []planparse.Step   `json:"steps"`
}

type validateReport struct {
	Path        string                 `json:"path"`
	Title       string                 `json:"title"`
	Topic       string                 `json:"topic"`
	Format      planparse.Format       `json:"format"`
	Tasks       []validateTask         `json:"tasks"`
	Diagnostics []planparse.Diagnostic `json:"diagnostics"`
	Config      *configReport          `json:"config,omitempty"`
}

// configReport is a .planx.yaml problem.
type configReport struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

func writeValidateJSON(w io.Writer, p *planparse.Plan, resolved map[planparse.TaskID][]string, cfgErr error) error {
	r := validateReport{Path: p.Path, Title: p.Title, Topic: p.Topic, Format: p.Format,
		Tasks: []validateTask{}, Diagnostics: p.Diagnostics}
	if r.Diagnostics == nil {
		r.Diagnostics = []planparse.Diagnostic{}
	}
	if cfgErr != nil {
		r.Config = &configReport{Message: cfgErr.Error()}
		var ce *gates.ConfigError
		if errors.As(cfgErr, &ce) {
			r.Config = &configReport{File: ce.File, Line: ce.Line, Message: ce.Msg, Hint: ce.Hint}
		}
	}
	for _, t := range p.Tasks {
		vt := validateTask{ID: t.ID, Label: t.Label, Title: t.Title, Status: t.Status, Parallel: t.Parallel,
			Parent: t.Parent, Children: nonNil(t.Children), Optional: t.Optional, Checkpoint: t.Checkpoint,
			Executor: t.Executor, DependsOn: nonNil(t.DependsOn), Files: nonNil(t.Files),
			Acceptance: nonNil(t.Acceptance), Gates: nonNil(resolved[t.ID]), Line: t.Line, Steps: nonNil(t.Steps)}
		if t.GatesOnly() && vt.Executor == "" {
			vt.Executor = "gates"
		}
		r.Tasks = append(r.Tasks, vt)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// statusWord is a task's status with what kind of task it is: open,
// open/group, open/optional, open/checkpoint.
func statusWord(t *planparse.Task) string {
	s := string(t.Status)
	if t.Status == planparse.StatusOptional {
		s = string(planparse.StatusOpen)
	}
	switch {
	case len(t.Children) > 0:
		s += "/group"
	case t.Optional:
		s += "/optional"
	case t.Checkpoint:
		s += "/checkpoint"
	}
	return s
}

func writeValidateText(w io.Writer, p *planparse.Plan, cfgErr error) {
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
			title := textsafe.Shorten(t.Title, 72)
			if t.Parent != "" {
				title = "  " + title
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", t.ID, label, statusWord(t), deps, title)
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
	if cfgErr != nil {
		errs++
		var ce *gates.ConfigError
		if errors.As(cfgErr, &ce) {
			fmt.Fprintf(w, "%s:%d: error: %s", ce.File, ce.Line, ce.Msg)
			if ce.Hint != "" {
				fmt.Fprintf(w, " (%s)", ce.Hint)
			}
			fmt.Fprintln(w)
		} else {
			fmt.Fprintf(w, "error: %v\n", cfgErr)
		}
	}
	fmt.Fprintf(w, "%d task(s), %d error(s), %d warning(s)\n", len(p.Tasks), errs, warns)
}
