package command

import (
	"fmt"
	"strings"

	"github.com/cpuguy83/go-md2man/v2/md2man"
	"github.com/urfave/cli/v3"
)

// manPage is planx(1), written from the command tree as a manual page is
// laid out (NAME, SYNOPSIS, DESCRIPTION, COMMANDS with their options and
// examples, EXIT STATUS, ENVIRONMENT, FILES, SEE ALSO) rather than the
// --help screens pasted in.
func manPage(root *cli.Command) string {
	var b strings.Builder
	b.WriteString("% PLANX 1\n\n# NAME\n\nplanx - " + root.Usage + "\n\n")
	b.WriteString("# SYNOPSIS\n\n**planx** [**-C** *dir*] *command* [*options*] [*arguments*]\n\n")
	desc, _, _ := strings.Cut(root.Description, "\n\nEXIT CODES:")
	b.WriteString("# DESCRIPTION\n\n" + manText(desc) + "\n\n")
	b.WriteString("Every command also prints its part of this page with **--help**; " +
		"*docs/cli.md* holds the same reference as markdown.\n\n")
	b.WriteString("# GLOBAL OPTIONS\n\n")
	manFlags(&b, root.Flags)
	b.WriteString("# COMMANDS\n\n")
	for _, c := range root.Commands {
		if c.Hidden || c.Name == "help" {
			continue
		}
		manCommand(&b, "planx", c)
	}
	b.WriteString("# EXIT STATUS\n\n")
	for _, l := range strings.Split(strings.TrimSpace(exitCodeHelp), "\n")[1:] {
		code, what, _ := strings.Cut(strings.TrimSpace(l), " ")
		fmt.Fprintf(&b, "**%s**\n: %s\n\n", code, manText(strings.TrimSpace(what)))
	}
	b.WriteString(manTail)
	return string(md2man.Render([]byte(b.String())))
}

func manCommand(b *strings.Builder, parent string, c *cli.Command) {
	path := parent + " " + c.Name
	fmt.Fprintf(b, "## %s\n\n", path)
	fmt.Fprintf(b, "**%s**", path)
	if c.ArgsUsage != "" {
		fmt.Fprintf(b, " [*options*] %s", manText(c.ArgsUsage))
	}
	b.WriteString("\n\n" + manText(c.Usage) + ".\n\n")
	para, examples, _ := strings.Cut(c.Description, "\n\nExamples:\n")
	if para != "" {
		b.WriteString(manText(para) + "\n\n")
	}
	if len(c.Aliases) > 0 {
		fmt.Fprintf(b, "Also: **planx %s**.\n\n", strings.Join(c.Aliases, "**, **planx "))
	}
	if visible := manVisible(c.Flags); len(visible) > 0 {
		b.WriteString("Options:\n\n")
		manFlags(b, visible)
	}
	if examples != "" {
		b.WriteString("Examples:\n\n")
		for _, l := range strings.Split(strings.TrimRight(examples, "\n"), "\n") {
			b.WriteString("    " + strings.TrimSpace(l) + "\n")
		}
		b.WriteString("\n")
	}
	for _, sub := range c.Commands {
		if !sub.Hidden && sub.Name != "help" {
			manCommand(b, path, sub)
		}
	}
}

func manVisible(fs []cli.Flag) []cli.Flag {
	var out []cli.Flag
	for _, f := range fs {
		if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
			continue
		}
		if strings.Contains(strings.Join(f.Names(), " "), "help") {
			continue
		}
		out = append(out, f)
	}
	return out
}

// manFlags writes flags as a definition list: names (with the value's
// placeholder), then the usage and the default.
func manFlags(b *strings.Builder, fs []cli.Flag) {
	for _, f := range manVisible(fs) {
		d, ok := f.(cli.DocGenerationFlag)
		if !ok {
			continue
		}
		var names []string
		for _, n := range f.Names() {
			dash := "--"
			if len(n) == 1 {
				dash = "-"
			}
			names = append(names, "**"+dash+n+"**")
		}
		usage := d.GetUsage()
		head := strings.Join(names, ", ")
		if d.TakesValue() {
			// A `NAME` in the usage is the value's placeholder, as in --help.
			placeholder := d.TypeName()
			if _, rest, ok := strings.Cut(usage, "`"); ok {
				if name, _, ok := strings.Cut(rest, "`"); ok {
					placeholder = name
					usage = strings.Replace(usage, "`"+name+"`", name, 1)
				}
			}
			head += " *" + placeholder + "*"
		}
		def := d.GetDefaultText()
		if def == "" && d.IsDefaultVisible() && d.TakesValue() {
			def = d.GetValue()
		}
		text := manText(usage)
		if def != "" && def != `""` && def != "[]" {
			text += " (default: " + manText(def) + ")"
		}
		fmt.Fprintf(b, "%s\n: %s\n\n", head, text)
	}
}

// manText turns help text into man-page markdown: backquoted spans stay
// code, and characters markdown would read as markup are escaped.
func manText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "<", `\<`, "[", `\[`)
	return r.Replace(s)
}

const manTail = `# ENVIRONMENT

**CI**
: with **true**, **run**, **resume** and **skip** behave as with **--ci**: plain output, no prompt, a stop at a manual task fails.

**NO_COLOR**
: no colour in the output.

**GITHUB_ACTIONS**, **GITHUB_STEP_SUMMARY**
: on GitHub Actions, failures and warnings become annotations and a summary of the run is written to the step summary.

**PLANX_TASK_ID**, **PLANX_PLAN**, **PLANX_RUN_ID**, **PLANX_REPO**
: set by planx for a task's steps, agent and gates: the task, the plan file, the run and the repository root.

**PLANX_PROMPT_FILE**, **PLANX_STATE_DIR**, **PLANX_REASON_FILE**
: set for an agent: its prompt, a directory of its own under the git directory, and where it writes why it cannot do the task.

# FILES

*.planx.yaml*
: the repository's gates, agent, sandbox, risk and log settings; pinned when a run starts.

*memory-bank/execute/*
: execution logs, one per run, committed with the tasks (**--log-dir**, **log_dir:**).

*.git/planx/*
: the state of the run in progress, each task's step, agent and gate output, and the work trees of parallel tasks; **planx prune** removes what old runs left.

# SEE ALSO

**git**(1), **git-rebase**(1), **git-notes**(1); *docs/plan-format.md*, *docs/agents.md*, *docs/judge.md*, *docs/parallel.md*, *docs/review.md*, *docs/risk.md* in planx's repository.
`
