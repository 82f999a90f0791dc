package agent

import (
	"fmt"
	"strings"

	"github.com/planx-dev/planx/planparse"
)

// Context is what the prompt says about the plan around the task.
type Context struct {
	PlanPath string
	Goal     string             // the plan's title
	Done     []*planparse.Task  // tasks already committed in this run or before
	Gates    []string           // the checks planx runs after the agent: "name: command"
	Attempt  int                // 1 for the first attempt
	Feedback string             // why the previous attempt failed, with output
	Checks   []string           // acceptance commands planx runs
	Repo     string             // the repository root (the agent's cwd)
	Others   []planparse.TaskID // tasks the agent must not do now
	// Groups are the tasks this one is a sub-task of, outermost first: their
	// text is the context the sub-task was written in.
	Groups []*planparse.Task
	// Protected are the files the judge is made of that the agent must not
	// change: the plan, .planx.yaml, gate scripts, the log directory.
	Protected []string
	// ReasonFile is where the agent writes why it cannot do the task.
	ReasonFile string
	// Spec names the feature's spec documents and quotes what the task cites.
	Spec Spec
}

// GiveUpCode is the exit code an agent that cannot do its task exits with,
// after writing the reason to Context.ReasonFile (an agent CLI that cannot
// choose its exit code just writes the file: planx reads it either way).
const GiveUpCode = 42

// Prompt composes the agent's instructions for one task.
func Prompt(t *planparse.Task, c Context) string {
	var b strings.Builder
	fmt.Fprintf(&b, "You are executing one task of an implementation plan, in the git repository at %s (your working directory).\n\n", c.Repo)
	fmt.Fprintf(&b, "# Task %s: %s\n\n", t.ID, t.Title)
	if t.Label != "" && t.Label != string(t.ID) {
		fmt.Fprintf(&b, "(The plan calls it %q.)\n\n", t.Label)
	}
	fmt.Fprintf(&b, "## The task as written in %s\n\n%s\n\n", c.PlanPath, fence(strings.TrimRight(t.Body, "\n")))
	for _, g := range c.Groups {
		fmt.Fprintf(&b, "## Part of %s (do only the task above; the other parts are separate tasks)\n\n%s\n\n",
			strings.TrimSpace(string(g.ID)+" "+g.Title), fence(strings.TrimRight(g.Body, "\n")))
	}
	if len(t.Files) > 0 {
		b.WriteString("## Files this task declares\n\n")
		for _, f := range t.Files {
			fmt.Fprintf(&b, "- %s: %s\n", f.Action, f.Path)
		}
		b.WriteString("\n")
	}
	if len(t.Acceptance) > 0 {
		b.WriteString("## Acceptance criteria\n\n")
		for _, a := range t.Acceptance {
			fmt.Fprintf(&b, "- %s\n", a)
		}
		b.WriteString("\n")
	}
	writeSpec(&b, c.Spec)
	fmt.Fprintf(&b, "## Context\n\nPlan: %s", c.PlanPath)
	if c.Goal != "" {
		fmt.Fprintf(&b, " — %s", c.Goal)
	}
	b.WriteString("\n")
	if len(c.Done) > 0 {
		b.WriteString("Tasks already done:\n")
		for _, d := range c.Done {
			fmt.Fprintf(&b, "- %s %s\n", d.ID, d.Title)
		}
	}
	if len(c.Gates)+len(c.Checks) > 0 {
		b.WriteString("\nWhen you stop, planx checks your work itself; the task counts as done only if these pass:\n")
		for _, g := range append(append([]string(nil), c.Checks...), c.Gates...) {
			fmt.Fprintf(&b, "- %s\n", g)
		}
	}
	b.WriteString(`
## Rules

- Do this task only; do not start other tasks of the plan.
- Change files only inside this repository, and only those the task needs (its declared files above, when it has any).
- Do not commit, do not switch branches, do not rewrite history, do not touch .git/: planx verifies your changes with git and makes the commit.
- Saying the task is done does not make it done: planx looks at the files you changed and runs the checks.
`)
	b.WriteString("- Do not change the judge. Do not edit, delete or replace")
	for _, p := range c.Protected {
		fmt.Fprintf(&b, " %s,", p)
	}
	b.WriteString(` any .gitignore, or existing test files other than those this task declares. You may add new test files. A task that changes these fails.
- Do not hide changes from git (no new ignore rules, no ` + "`git update-index --skip-worktree` or `--assume-unchanged`" + `), do not change ~/.gitconfig, git hooks or a test runner's configuration (go env -w, ~/.npmrc, Python's user site-packages), do not install programs into directories on PATH, and leave no process running when you stop: planx kills whatever is left when you exit, before it checks your work.
- Stop when the task is done.
`)
	if c.ReasonFile != "" {
		fmt.Fprintf(&b, "- If the task cannot be done as written, do not fake it and do not weaken the checks: write the reason to %s (the one file outside the work tree you may write), then stop (exit with code %d if you choose your exit code). planx stops the run and shows your reason to the user.\n", c.ReasonFile, GiveUpCode)
	}
	if c.Attempt > 1 {
		fmt.Fprintf(&b, "\n## Attempt %d: the previous attempt failed\n\nplanx found this:\n\n%s\n\nFix the cause in the work itself; your earlier changes are still in the work tree. The rules above still hold.\n", c.Attempt, fence(strings.TrimRight(c.Feedback, "\n")))
	}
	return b.String()
}

// fence wraps text in a code fence longer than any backtick run inside it.
func fence(s string) string {
	n, run := 3, 0
	for _, r := range s {
		if r == '`' {
			run++
			if run >= n {
				n = run + 1
			}
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", n)
	return f + "\n" + s + "\n" + f
}
