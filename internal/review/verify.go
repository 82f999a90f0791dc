package review

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/planparse"
)

// Options say what Verify checks.
type Options struct {
	// Range "A..B" checks the task commits in it (first-parent, as pushed);
	// empty checks the most recent run reachable from Rev (but see Auto and
	// Unpushed).
	Range string
	// Rev is where history is read from without a Range; "" means HEAD.
	Rev string
	// Unpushed checks the commits of Rev that no remote-tracking ref
	// reaches, across every run they touch: a new branch being pushed.
	Unpushed bool
	// Auto, without a Range, checks the current branch's commits not yet on
	// its upstream, else those not on any remote, else the most recent run;
	// Report.Scope says which.
	Auto bool
	// Plan, when set, considers only runs of that plan (repo-relative path).
	Plan string
	// Rerun re-runs gates, each commit in a temporary detached worktree:
	// RerunUnverified, RerunAll or RerunTip; "" re-runs nothing.
	Rerun string
	// NoCache re-runs gates even on a tree with a passing record.
	NoCache bool
	// Strict makes a task commit this repository has no record of ("gated
	// elsewhere, not re-verified here") and an overridden gate errors.
	Strict bool
	// TrustBranchConfig takes re-run gate definitions from the commits
	// checked; otherwise they come from Base (see Trusted).
	TrustBranchConfig bool
	// Base is the trusted revision whose .planx.yaml and plan define the
	// gates --rerun-gates runs; "" means origin/HEAD, the remote's default branch.
	Base string
	// GateOutput receives the re-run gates' live output; nil discards it.
	GateOutput io.Writer
}

// Rerun modes.
const (
	RerunUnverified = "unverified" // commits without a passing record for their tree
	RerunAll        = "all"        // every task commit in scope
	RerunTip        = "tip"        // the newest task commit in scope
)

// Finding severities and kinds.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"

	KindMalformed   = "malformed"    // trailers missing or ill-formed
	KindGateFailed  = "gate-failed"  // a recorded gate failed
	KindGateMissing = "gate-missing" // a configured gate is not recorded
	KindDrift       = "drift"        // the task's text changed since its commit
	// KindTextAccepted: the text changed since the commit, and a later
	// commit accepted it without running the task again (a warning).
	KindTextAccepted = "text-accepted"
	KindNotInPlan    = "not-in-plan"     // the task (or the plan) is gone
	KindPlanInvalid  = "plan-invalid"    // the plan at the tip has errors
	KindOrder        = "order"           // committed before a dependency
	KindEmpty        = "empty"           // changed nothing but the plan and the log
	KindMissing      = "missing"         // a plan task not done yet
	KindShallow      = "shallow"         // history cut by a shallow clone
	KindRerunFailed  = "rerun-failed"    // a gate re-run on a commit failed
	KindNoGates      = "no-gates"        // --rerun-gates found no gate to re-run on a commit
	KindUnverified   = "unverified"      // not the commit planx made, or its tree never gated here
	KindElsewhere    = "not-reverified"  // gated where it was made; no record here
	KindNote         = "note-mismatch"   // the gate note belongs to another commit, or contradicts the trailers
	KindTaskWarning  = "task-warning"    // a Planx-Warning trailer
	KindOverridden   = "gate-overridden" // a gate replaced by --gate on the command line
)

// Evidence values of TaskReport.Evidence: why the commit is (not) trusted.
const (
	EvidenceMade       = "made"       // the commit planx made here
	EvidenceRecorded   = "recorded"   // its tree has a passing record of each claimed gate
	EvidenceRerun      = "rerun"      // its gates were re-run now and passed
	EvidenceElsewhere  = "elsewhere"  // no record here: gated where it was made
	EvidenceUnverified = "unverified" // rewritten or hand-made: never gated as it is
)

// Finding is one problem Verify found.
type Finding struct {
	Severity string     `json:"severity"`
	Kind     string     `json:"kind"`
	Run      string     `json:"run,omitempty"`
	Task     string     `json:"task,omitempty"`
	Commit   gitops.SHA `json:"commit,omitempty"`
	Message  string     `json:"message"`
	// Diff is the task's text at its commit against the tip, one line each
	// prefixed "-", "+" or " ", for drift.
	Diff string `json:"diff,omitempty"`
}

// TaskReport is a checked task commit.
type TaskReport struct {
	ID string `json:"id"`
	// Label is the plan's own ID of the task (Planx-Label), when it has one.
	Label   string     `json:"label,omitempty"`
	Commit  gitops.SHA `json:"commit"`
	Subject string     `json:"subject"`
	Gates   []Gate     `json:"gates"`
	// WaveGates: the integration gate on the commit's tree, the combined
	// tree of its parallel wave (the wave's last commit only).
	WaveGates []Gate `json:"wave_gates,omitempty"`
	// Evidence says what vouches for the commit (Evidence* values).
	Evidence string `json:"evidence"`
	// Sandbox is the confinement the task's executor ran under, as its
	// commit says ("" when it does not say).
	Sandbox  string   `json:"sandbox,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	// Finished is how the task was finished after a stop (Planx-Finished),
	// shown beside ok: verify vouches for the commit's gates, not that the
	// task's own steps produced it.
	Finished string `json:"finished,omitempty"`
	OK       bool   `json:"ok"` // no error finding concerns this commit
}

// RunReport is a run Verify looked at.
type RunReport struct {
	ID       string       `json:"id"`
	Plan     string       `json:"plan"`
	Rollback gitops.SHA   `json:"rollback"`
	Tasks    []TaskReport `json:"tasks"`
	Missing  []string     `json:"missing"` // plan tasks neither done nor skipped
}

// GateRun is a gate re-run by RerunGates.
type GateRun struct {
	Task       string     `json:"task,omitempty"`
	Commit     gitops.SHA `json:"commit,omitempty"`
	Cached     bool       `json:"cached,omitempty"` // not run: passed on this tree before
	Name       string     `json:"name"`
	Command    string     `json:"command"`
	Passed     bool       `json:"passed"`
	ExitCode   int        `json:"exit_code"`
	DurationMS int64      `json:"duration_ms"`
	TimedOut   bool       `json:"timed_out,omitempty"`
	Tail       string     `json:"tail,omitempty"`
}

// Report is the outcome of Verify.
type Report struct {
	Range string `json:"range,omitempty"`
	Scope string `json:"scope,omitempty"` // which commits were checked, in words
	// GateSource says where re-run gate definitions came from.
	GateSource string      `json:"gate_source,omitempty"`
	Tip        gitops.SHA  `json:"tip"`
	Runs       []RunReport `json:"runs"`
	Findings   []Finding   `json:"findings"`
	Gates      []GateRun   `json:"rerun_gates,omitempty"`
	OK         bool        `json:"ok"`
}

// Verify checks the task commits opts selects. The Report is filled as far
// as the checks got; the error is nil when no finding is an error, else it
// wraps the sentinel of the most serious finding (see the package doc).
// Errors reading the repository are returned as they are.
func Verify(ctx context.Context, repo *gitops.Repo, opts Options) (Report, error) {
	rep := Report{Range: opts.Range, Runs: []RunReport{}, Findings: []Finding{}}
	runs, scope, err := selectRuns(ctx, repo, opts, &rep)
	var shallow *ShallowError
	if errors.As(err, &shallow) {
		rep.add(Finding{Severity: SeverityError, Kind: KindShallow, Run: shallow.Run, Message: shallow.Error()})
		return rep, rep.err()
	}
	if err != nil {
		return rep, err
	}
	c := newChecker(ctx, repo, rep.Tip, &rep)
	c.opts = opts
	defer c.close()
	for i := range runs {
		if err := c.run(&runs[i], scope); err != nil {
			return rep, err
		}
	}
	if err := c.settle(); err != nil {
		return rep, err
	}
	return rep, rep.err()
}

// parseRange resolves "A..B" (B defaults to HEAD, as in git).
func parseRange(ctx context.Context, repo *gitops.Repo, rng string) (from, to gitops.SHA, err error) {
	a, b, ok := strings.Cut(rng, "..")
	if !ok || a == "" || strings.HasPrefix(b, ".") {
		return "", "", fmt.Errorf("%w %q: want A..B", ErrRange, rng)
	}
	if b == "" {
		b = "HEAD"
	}
	for _, end := range []struct {
		rev string
		sha *gitops.SHA
	}{{a, &from}, {b, &to}} {
		s, err := repo.Refs().Resolve(ctx, end.rev)
		if err != nil {
			return "", "", fmt.Errorf("%w %q: %w", ErrRange, rng, err)
		}
		if s == "" {
			return "", "", fmt.Errorf("%w %q: %q is not a commit here", ErrRange, rng, end.rev)
		}
		*end.sha = s
	}
	return from, to, nil
}

// noteShallow warns that a shallow clone may hide runs when none was found.
func noteShallow(ctx context.Context, repo *gitops.Repo, rep *Report) {
	if shallow, err := repo.History().IsShallow(ctx); err == nil && shallow {
		rep.add(Finding{Severity: SeverityWarning, Kind: KindShallow,
			Message: "no planx run in the history this shallow clone has; older runs are not checked (git fetch --unshallow, or fetch-depth: 0 in CI)"})
	}
}

func (r *Report) add(f Finding) { r.Findings = append(r.Findings, f) }

// err picks the sentinel of the most serious error finding: an invalid plan
// makes every other check doubtful; a failed or unproven task is worse than
// a task whose text was edited afterwards.
func (r *Report) err() error {
	first := map[string]*Finding{}
	n := 0
	for i := range r.Findings {
		f := &r.Findings[i]
		if f.Severity != SeverityError {
			continue
		}
		n++
		if first[f.Kind] == nil {
			first[f.Kind] = f
		}
	}
	r.OK = n == 0
	if n == 0 {
		return nil
	}
	order := []struct {
		kind     string
		sentinel error
	}{
		{KindPlanInvalid, planparse.ErrInvalid},
		{KindShallow, ErrShallow},
		{KindGateFailed, record.ErrTaskFailed},
		{KindRerunFailed, record.ErrTaskFailed},
		{KindNoGates, ErrUnverified},
		{KindUnverified, ErrUnverified},
		{KindNote, ErrUnverified},
		{KindMalformed, ErrUnverified},
		{KindEmpty, ErrUnverified},
		{KindGateMissing, ErrUnverified},
		{KindOrder, ErrUnverified},
		{KindElsewhere, ErrUnverified},
		{KindOverridden, ErrUnverified},
		{KindDrift, record.ErrDrift},
		{KindNotInPlan, record.ErrDrift},
	}
	for _, o := range order {
		if f := first[o.kind]; f != nil {
			more := ""
			if n > 1 {
				more = fmt.Sprintf(" (and %d more problem(s))", n-1)
			}
			return fmt.Errorf("verify: %w: %s%s", o.sentinel, f.Message, more)
		}
	}
	return fmt.Errorf("verify: %w: %d problem(s)", ErrUnverified, n)
}
