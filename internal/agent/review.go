package agent

import (
	"fmt"
	"os"
	"strings"

	"github.com/planx-dev/planx/planparse"
)

// The review gate: a second agent reads a task's text and the diff its
// agent made, and answers with findings and a verdict. It is not asked to
// change anything (its writes are discarded); planx reads its output.
//
// The output contract: the last line that is not blank is the verdict,
// `VERDICT: pass` or `VERDICT: fail`; each finding is a line of its own
// starting `FINDING:`. Anything else (no verdict line, another word, a
// verdict followed by more text) is no verdict, and fails the gate: a
// review that cannot say pass has not passed.

// Verdict is what a reviewer's output says.
type Verdict struct {
	Pass     bool
	Findings []string
	// Problem says why the output holds no verdict ("" when it does).
	Problem string
}

// ParseVerdict reads a reviewer's output by the contract above.
func ParseVerdict(out string) Verdict {
	var v Verdict
	last := ""
	for _, l := range strings.Split(out, "\n") {
		l = plainLine(l)
		if l == "" {
			continue
		}
		last = l
		if f, ok := cutLabel(l, "FINDING:"); ok && f != "" {
			v.Findings = append(v.Findings, f)
		}
	}
	word, ok := cutLabel(last, "VERDICT:")
	switch {
	case !ok:
		v.Problem = "the reviewer's output does not end in a verdict line (VERDICT: pass or VERDICT: fail)"
	case strings.EqualFold(word, "pass"):
		v.Pass = true
	case strings.EqualFold(word, "fail"):
	default:
		v.Problem = fmt.Sprintf("the reviewer's verdict %q is neither pass nor fail", word)
	}
	return v
}

// plainLine is l without the markup a model's final message may put
// around a line (`**VERDICT: pass**`, a `> ` quote, backticks).
func plainLine(l string) string {
	l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), ">-"))
	return strings.TrimSpace(strings.Trim(l, "*`_"))
}

// cutLabel returns what follows label at the start of l, in any case.
func cutLabel(l, label string) (string, bool) {
	if len(l) < len(label) || !strings.EqualFold(l[:len(label)], label) {
		return "", false
	}
	return strings.TrimSpace(strings.Trim(l[len(label):], "*`_ ")), true
}

// ReviewPrompt is what the reviewer is asked: the task as the plan
// writes it, the diff of its agent's work against the task's base, and
// the output contract.
func ReviewPrompt(t *planparse.Task, planPath, repo, diff string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "You are reviewing the work another agent did on one task of an implementation plan, in the git repository at %s (your working directory, which holds that work).\n\n", repo)
	b.WriteString("Do not change any file: anything you write is discarded. Read the code, run the program or its tests if that helps, and judge whether the change does what the task asks, for every input the task covers, not only the cases the tests check. Look in particular for answers hard-coded to the tests, code that behaves differently when it is tested, tests weakened or removed, and work the task asks for that is missing.\n\n")
	fmt.Fprintf(&b, "# Task %s: %s\n\n## The task as written in %s\n\n%s\n\n", t.ID, t.Title, planPath, fence(strings.TrimRight(t.Body, "\n")))
	if len(t.Acceptance) > 0 {
		b.WriteString("## Acceptance criteria\n\n")
		for _, a := range t.Acceptance {
			fmt.Fprintf(&b, "- %s\n", a)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "## The change (git diff against the task's base)\n\n%s\n\n", fence(strings.TrimRight(diff, "\n")))
	b.WriteString("## How to answer\n\n")
	b.WriteString("Write each problem you find on a line of its own starting with `FINDING:`. End your answer with one line, the last one, that is exactly `VERDICT: pass` (the change does what the task asks) or `VERDICT: fail` (it does not). An answer without that last line counts as a fail.\n")
	return b.String()
}

// modelVars are the variables through which a preset's CLI takes its model:
// the reviewer's `model:` is given to it there. A preset not listed (codex,
// opencode) reads its model from its own configuration file.
var modelVars = map[string]string{
	"claude": "ANTHROPIC_MODEL",
	"gemini": "GEMINI_MODEL",
	"qwen":   "OPENAI_MODEL",
	"aider":  "AIDER_MODEL",
}

// ModelVar is the variable the preset spec takes its model from ("" when
// it has none, or spec is a command).
func ModelVar(spec string) string { return modelVars[strings.TrimSpace(spec)] }

// Identity names an agent as a review records it, preset (or command) and
// model: model, else the model the preset's variable holds in planx's
// environment, else "default".
func Identity(spec, model string) string {
	spec = strings.Join(strings.Fields(spec), " ")
	if model == "" {
		if v := ModelVar(spec); v != "" {
			model = os.Getenv(v)
		}
	}
	if model == "" {
		model = "default"
	}
	return spec + "/" + model
}
