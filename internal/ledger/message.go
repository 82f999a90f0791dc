package ledger

import (
	"fmt"
	"strings"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// The messages of planx's commits: the rollback commit, a task's commit
// (subject, description, folded commits, Planx-* trailers) and the commit
// that closes a run whose last task was skipped. Their trailers are the
// contract planx verify and review read: pure functions of plain values, so
// that a table test pins them byte for byte.

// RollbackMessage is the rollback commit's: what it is and how to use it,
// the uncommitted work it took from the tree (changes; none on a clean
// tree), with the trailers that tie it to the plan and the run.
func RollbackMessage(topic, planRel, runID string, changes []gitops.Change) string {
	var b strings.Builder
	fmt.Fprintf(&b, "rollback: before executing plan %s\n\n", topic)
	// Not "reset to this commit": that leaves a stopped run locked, and
	// the uncommitted work it holds committed.
	b.WriteString("Snapshot of the work tree before planx ran the plan. `planx undo` takes a\nfinished run back off the branch and puts what this commit holds back in the\nwork tree; `planx abort` does the same for a stopped run.\n\n")
	if len(changes) > 0 {
		fmt.Fprintf(&b, "It holds the uncommitted work planx found in the tree (%s):\n\n", textsafe.Count(len(changes), "file"))
		for i, c := range changes {
			if i == maxListed {
				fmt.Fprintf(&b, "  and %d more (git show --stat on this commit lists them all)\n", len(changes)-maxListed)
				break
			}
			fmt.Fprintf(&b, "  %-9s %s\n", changeKind(c), textsafe.Line(c.Path))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%s: %s\n%s: %s\n%s: true\n", record.TrailerRefs, planRel, record.TrailerRun, runID, record.TrailerRollback)
	return b.String()
}

// maxListed is how many snapshotted files the rollback commit names.
const maxListed = 20

// changeKind says in a word what git status reports for a file.
func changeKind(c gitops.Change) string {
	switch {
	case c.Index == '?':
		return "untracked"
	case c.Index == 'D' || c.Work == 'D':
		return "deleted"
	case c.Index == 'A':
		return "added"
	default:
		return "modified"
	}
}

// FinishMessage closes a run of the plan topic (at planRel) whose last task
// was skipped; skipped are the skipped tasks no commit has recorded yet,
// finished their Planx-Finished values.
func FinishMessage(topic, planRel, runID string, skipped []planparse.TaskID, finished []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "planx: finish run of plan %s\n\n", topic)
	fmt.Fprintf(&b, "The run ended without a task commit to carry its log: record the log%s.\n\n",
		map[bool]string{true: " and the skipped tasks", false: ""}[len(skipped) > 0])
	fmt.Fprintf(&b, "%s: %s\n%s: %s\n", record.TrailerRefs, planRel, record.TrailerRun, runID)
	for _, id := range skipped {
		fmt.Fprintf(&b, "%s: %s\n", record.TrailerSkipped, id)
	}
	for _, f := range finished {
		fmt.Fprintf(&b, "%s: %s\n", record.TrailerFinished, strings.Join(strings.Fields(f), " "))
	}
	return b.String()
}

// AcceptTextMessage is the message of the commit that accepts task t's
// new text without running it again: t was committed in commit with the
// text whose hash was oldHash. Its trailers make t done with its new text
// (see planfile.Done); it carries no Planx-Run, as no run executed it.
func AcceptTextMessage(planRel string, t *planparse.Task, commit gitops.SHA, oldHash string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s (text edit accepted)\n\n", t.ID, textsafe.Shorten(t.Title, 72-len(t.ID)-24))
	fmt.Fprintf(&b, "The text of %s in %s changed since its commit %s. The new text was accepted\nwithout running the task again (planx run --accept-text): this commit changes no file.\n\n",
		t.DisplayID(), planRel, commit.Short())
	fmt.Fprintf(&b, "%s: %s\n%s: %s\n%s: sha256:%s\n%s: %s -> sha256:%s\n",
		record.TrailerRefs, planRel, record.TrailerTask, t.ID, record.TrailerTaskHash, t.Hash(),
		record.TrailerTextAccepted, oldHash, t.Hash())
	return b.String()
}

// TaskCommit is what a task's commit message is made of.
type TaskCommit struct {
	PlanRel, RunID string
	Task           *planparse.Task
	Log            *execlog.Task      // the task's log entry: executor, steps, files, gates
	Groups         []*planparse.Task  // the groups the task completes
	Folded         []string           // messages of the executor's commits folded into this one
	Warnings       []string           // Planx-Warning values
	Skipped        []planparse.TaskID // skipped tasks no commit has recorded yet
	Ticked         bool               // planx ticked a checkbox in the plan for this commit
	// Finished are the Planx-Finished values ("T002 by hand after …"): the
	// task's own, then the skipped tasks'.
	Finished []string
}

// TaskMessage is the task commit's message: subject, a short description,
// the messages of the commits folded into it, then trailers `git
// interpret-trailers --parse` reads.
func TaskMessage(c TaskCommit) string {
	t, lt := c.Task, c.Log
	var b strings.Builder
	subject := textsafe.Shorten(t.Title, 72-len(t.ID)-2)
	fmt.Fprintf(&b, "%s: %s\n\n", t.ID, subject)
	if full := strings.Join(strings.Fields(t.Title), " "); subject != full {
		// The subject was cut with "…": the body keeps the whole title.
		fmt.Fprintf(&b, "%s\n\n", full)
	}
	b.WriteString(taskSummary(c.PlanRel, t, lt, c.Ticked, ownFinish(t, c.Finished)))
	for _, m := range c.Folded {
		// Indented so the folded messages can never be read as this commit's trailers.
		fmt.Fprintf(&b, "Folded commit made by the executor:\n\n%s\n\n", textsafe.Indent(m, "    "))
	}
	fmt.Fprintf(&b, "%s: %s\n", record.TrailerRefs, c.PlanRel)
	fmt.Fprintf(&b, "%s: %s\n", record.TrailerRun, c.RunID)
	fmt.Fprintf(&b, "%s: %s\n", record.TrailerTask, t.ID)
	if t.Label != "" && t.Label != string(t.ID) {
		fmt.Fprintf(&b, "%s: %s\n", record.TrailerLabel, strings.Join(strings.Fields(t.Label), " "))
	}
	fmt.Fprintf(&b, "%s: sha256:%s\n", record.TrailerTaskHash, t.Hash())
	fmt.Fprintf(&b, "%s: %s\n", record.TrailerExecutor, lt.Executor)
	if lt.Sandbox != "" {
		fmt.Fprintf(&b, "%s: %s\n", record.TrailerSandbox, lt.Sandbox)
	}
	if len(lt.Outside) > 0 {
		fmt.Fprintf(&b, "%s: %s\n", record.TrailerOutside, OutsideTrailer(lt.Outside))
	}
	if !lt.Cost.IsZero() {
		fmt.Fprintf(&b, "%s: %s\n", record.TrailerCost, lt.Cost)
	}
	if lt.Review != "" {
		fmt.Fprintf(&b, "%s: %s\n%s: %s\n", record.TrailerAgent, lt.Agent, record.TrailerReview, lt.Review)
	}
	for _, g := range lt.Gates {
		fmt.Fprintf(&b, "%s: %s\n", record.TrailerGate, GateTrailer(g))
	}
	if lt.Executor == "agent" {
		for _, g := range lt.Gates {
			if lt.Review != "" && g.Name == gates.ReviewGate {
				continue // no test run: Planx-Review says what it found
			}
			tests := g.Tests
			if tests == "" {
				tests = "exit-code only"
			}
			fmt.Fprintf(&b, "%s: %s %s\n", record.TrailerTests, g.Name, tests)
		}
	}
	for _, h := range lt.Hidden {
		fmt.Fprintf(&b, "%s: %s\n", record.TrailerHidden, h)
	}
	for _, g := range lt.Gates {
		for _, p := range g.Fixed {
			fmt.Fprintf(&b, "%s: %s %s\n", record.TrailerFixed, g.Name, p)
		}
	}
	for _, id := range c.Skipped {
		fmt.Fprintf(&b, "%s: %s\n", record.TrailerSkipped, id)
	}
	for _, g := range c.Groups {
		fmt.Fprintf(&b, "%s: %s\n", record.TrailerGroup, g.ID)
	}
	for _, w := range c.Warnings {
		fmt.Fprintf(&b, "%s: %s\n", record.TrailerWarning, w)
	}
	for _, f := range c.Finished {
		fmt.Fprintf(&b, "%s: %s\n", record.TrailerFinished, strings.Join(strings.Fields(f), " "))
	}
	for _, g := range lt.Gates {
		if len(g.Known) > 0 {
			fmt.Fprintf(&b, "%s: known-failures=%s:%s\n", record.TrailerWarning, g.Name, strings.Join(g.Known, ","))
		}
	}
	return b.String()
}

// taskSummary is the description under the subject: how the task ran, and
// what the commit holds, so that it agrees with `git show --stat`: the
// task's own files (lt.Files leaves out the log and a plan only ticked),
// plus the plan's tick and the execution log planx adds to every commit.
func taskSummary(planRel string, t *planparse.Task, lt *execlog.Task, ticked bool, finished string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Task %s of plan %s, executed by %s", t.DisplayID(), planRel, lt.Executor)
	if len(lt.Commands) > 0 {
		fmt.Fprintf(&b, " in %s", textsafe.Count(len(lt.Commands), "step"))
	}
	if finished != "" {
		// "executed in 2 steps" alone would read as a run that passed.
		fmt.Fprintf(&b, ", then finished %s", finished)
	}
	if len(lt.Gates) > 0 {
		fmt.Fprintf(&b, "; %s passed", textsafe.Count(len(lt.Gates), "gate"))
	}
	b.WriteString(".\n")
	var holds []string
	if len(lt.Files) > 0 {
		holds = append(holds, "the "+textsafe.Count(len(lt.Files), "file")+" the task changed")
	}
	if ticked {
		holds = append(holds, "the plan's tick")
	}
	holds = append(holds, "the execution log")
	last := len(holds) - 1
	list := strings.Join(holds[:last], ", ")
	if last > 0 {
		list += " and "
	}
	list += holds[last]
	if len(lt.Files) == 0 {
		fmt.Fprintf(&b, "The task changed no file: the commit holds only %s.\n\n", list)
	} else {
		fmt.Fprintf(&b, "The commit holds %s.\n\n", list)
	}
	return b.String()
}

// ownFinish is how t itself was finished, from the Planx-Finished values
// ("T002 by hand after …" → "by hand after …"), or "".
func ownFinish(t *planparse.Task, finished []string) string {
	for _, f := range finished {
		if how, ok := strings.CutPrefix(f, string(t.ID)+" "); ok {
			return how
		}
	}
	return ""
}

// GateTrailer renders one gate result as `name=pass 1234ms`, followed by
// "overridden" for a gate a --gate flag replaced and "cached" for one not
// run again because it passed on the same tree before.
func GateTrailer(g execlog.Gate) string {
	verdict := "fail"
	if g.Passed {
		verdict = "pass"
	}
	s := fmt.Sprintf("%s=%s %dms", g.Name, verdict, g.Duration.Milliseconds())
	if g.Overridden {
		s += " overridden"
	}
	if g.Cached {
		s += " cached"
	}
	return s
}

// OutsideTrailer is Planx-Outside's value: how many places (a path, or a
// directory of several) an agent wrote outside its work tree, and the
// first few, on one line.
func OutsideTrailer(paths []string) string {
	const shown = 3
	var names []string
	for i, p := range paths {
		if i == shown {
			names = append(names, "…")
			break
		}
		names = append(names, textsafe.Line(p))
	}
	word := "places"
	if len(paths) == 1 {
		word = "place"
	}
	return fmt.Sprintf("%d %s: %s", len(paths), word, strings.Join(names, ", "))
}
