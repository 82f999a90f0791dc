package drive

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/agent"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/run/execute"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// reviewDiffMax bounds the diff the reviewer's prompt quotes; the reviewer
// may read the rest in its working directory.
const reviewDiffMax = 256 << 10

// identityMax bounds an agent's name (its preset or command, and model)
// in the trailers.
const identityMax = 200

// review runs the review gate (.planx.yaml's review:) on an agent task
// whose gates passed: a second agent reads the task's text and its staged
// diff against the task's base, read-only, and its verdict is a gate. Its
// result is recorded as the gate "review" (its trailer, its output in the
// gate-output note) and in Planx-Review and Planx-Agent; a fail, or an
// answer that is no verdict, fails the task with the findings.
func (tu *turn) review(ctx context.Context) error {
	rv, t, lt := tu.r.Config.Review, tu.t, tu.lt
	if !rv.On() || tu.kind != planparse.KindAgent {
		return nil
	}
	repo, base := tu.at.where()
	// The execution log and the plan's tick are planx's, not the agent's.
	diff, err := repo.History().StagedDiff(ctx, base, tu.r.log.Path, tu.r.planRel)
	if err != nil {
		return err
	}
	if len(diff) > reviewDiffMax {
		diff = diff[:reviewDiffMax] + fmt.Sprintf("\n[planx: the diff goes on for %d more bytes; run git diff --cached %s to read it]\n", len(diff)-reviewDiffMax, base.Short())
	}
	o := tu.at.execOptions()
	end, err := execute.Review(ctx, t, execute.ReviewRun{Spec: rv.Agent, Model: rv.Model, Timeout: rv.Timeout,
		Prompt: agent.ReviewPrompt(t, tu.r.planRel, o.Dir, diff)}, o)
	if err != nil {
		return err
	}
	by := agent.Identity(rv.Agent, rv.Model)
	v := agent.ParseVerdict(end.Output)
	res := end.Result
	switch {
	case res.TimedOut:
		v = agent.Verdict{Findings: v.Findings, Problem: fmt.Sprintf("the reviewer timed out after %s", res.Duration.Round(time.Millisecond))}
	case res.ExitCode != 0:
		v.Pass, v.Problem = false, fmt.Sprintf("the reviewer exited with code %d", res.ExitCode)
	}
	passed := v.Pass && v.Problem == ""
	word := map[bool]string{true: "pass", false: "fail"}[passed]
	// Trailers are one line each: a command as long as a paragraph is cut.
	lt.Agent = textsafe.Shorten(agent.Identity(tu.r.AgentSpec(), ""), identityMax)
	lt.Review = fmt.Sprintf("%s by %s; %d finding%s", word, textsafe.Shorten(by, identityMax), len(v.Findings), map[bool]string{true: "", false: "s"}[len(v.Findings) == 1])
	lt.Gates = append(lt.Gates, execlog.Gate{Name: gates.ReviewGate, Command: "review by " + by, Passed: passed,
		ExitCode: res.ExitCode, Duration: res.Duration, TimedOut: res.TimedOut, Tail: res.Tail, OutputPath: res.OutputPath})
	if passed {
		tu.at.locked(func() { tu.r.out.Println("      review: %s", lt.Review) })
		return nil
	}
	what := "review: fail by " + by
	if v.Problem != "" {
		what += ": " + v.Problem
	}
	var tail strings.Builder
	for _, f := range v.Findings {
		fmt.Fprintf(&tail, "FINDING: %s\n", f)
	}
	if tail.Len() == 0 {
		tail.WriteString(res.Tail)
	}
	return &outcome.Failure{What: what, Tail: tail.String()}
}
