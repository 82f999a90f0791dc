package review

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
)

// Gate is one gate result as a Planx-Gate trailer records it.
type Gate struct {
	Name       string `json:"name"`
	Passed     bool   `json:"passed"`
	DurationMS int64  `json:"duration_ms"`
	// Overridden: a --gate flag replaced the configured gate of that name.
	Overridden bool `json:"overridden,omitempty"`
	// Cached: not run for this commit; it passed on the same tree before.
	Cached bool `json:"cached,omitempty"`
}

// TaskCommit is one task commit read back from its trailers.
type TaskCommit struct {
	ID string `json:"id"`
	// Label is the plan's own ID for the task (Planx-Label: Kiro's 1.2),
	// "" when the plan calls it by ID.
	Label    string     `json:"label,omitempty"`
	Subject  string     `json:"subject"`
	Commit   gitops.SHA `json:"commit"`
	Tree     gitops.SHA `json:"tree"`
	Parent   gitops.SHA `json:"-"` // first parent; "" for a root commit
	Plan     string     `json:"plan"`
	Time     time.Time  `json:"time"`
	Executor string     `json:"executor"`
	// Sandbox is the confinement the executor ran under (Planx-Sandbox);
	// "" when the commit does not say (the plan's own steps, unconfined).
	Sandbox string `json:"sandbox,omitempty"`
	// Cost is what the task's agent reported its model use cost
	// (Planx-Cost); nil when the commit does not say.
	Cost     *record.Cost `json:"cost,omitempty"`
	TaskHash string       `json:"task_hash"`
	Gates    []Gate       `json:"gates"`
	// WaveGates are the integration gate's results on this commit's tree
	// (Planx-Wave-Gate): on the last commit of a parallel wave.
	WaveGates []Gate `json:"wave_gates,omitempty"`
	// Warnings are the Planx-Warning values: what planx let pass but
	// reported (outside-declared=…, folded-commits=…).
	Warnings []string `json:"warnings,omitempty"`
	// Finished is how the task was finished after a stop (Planx-Finished:
	// "by hand after step 2 of 3 failed (exit 1)", "by a retry after …"); ""
	// for an attempt that ran and passed as is.
	Finished string `json:"finished,omitempty"`
	// DurationMS is the time since the run's previous commit, from committer
	// timestamps (one-second resolution); nil when there is none to compare.
	DurationMS *int64 `json:"duration_ms"`
	// Problems lists what is wrong with the trailers; empty when well formed.
	Problems []string `json:"problems,omitempty"`
}

// GatesPassed reports whether every recorded gate passed.
func (t TaskCommit) GatesPassed() bool {
	for _, g := range slices.Concat(t.Gates, t.WaveGates) {
		if !g.Passed {
			return false
		}
	}
	return true
}

// Status is done, gate-failed or malformed, in that order of precedence
// from worst: malformed trailers prove nothing.
func (t TaskCommit) Status() record.TaskStatus {
	switch {
	case len(t.Problems) > 0:
		return record.TaskMalformed
	case !t.GatesPassed():
		return record.TaskGateFailed
	}
	return record.TaskDone
}

type commitKind int

const (
	kindOther    commitKind = iota // no Planx-Run: not planx's
	kindRollback                   // Planx-Rollback: true
	kindTask                       // Planx-Task
	kindRunOther                   // Planx-Run without task or rollback (unknown to this version)
)

// parsed is a commit classified by its trailers.
type parsed struct {
	kind    commitKind
	run     string
	plan    string
	task    TaskCommit
	skipped []string
	// finished are the Planx-Finished values of other tasks than the
	// commit's own (the skipped ones it records).
	finished []string
}

var (
	gateRE  = regexp.MustCompile(`^([^\s=]+)=(pass|fail) ([0-9]+)ms((?: (?:overridden|cached))*)$`)
	runRE   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	taskRE  = regexp.MustCompile(`^T[0-9]{3,}$`)
	hashRE  = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
	splitRE = regexp.MustCompile(`[\s,]+`)
)

// ParseGate parses a Planx-Gate value, `name=pass 12ms`.
func ParseGate(v string) (Gate, error) {
	m := gateRE.FindStringSubmatch(v)
	if m == nil {
		return Gate{}, fmt.Errorf("malformed %s %q (want name=pass|fail Nms [overridden] [cached])", record.TrailerGate, v)
	}
	ms, err := strconv.ParseInt(m[3], 10, 64)
	if err != nil {
		return Gate{}, fmt.Errorf("malformed %s %q: %w", record.TrailerGate, v, err)
	}
	return Gate{Name: m[1], Passed: m[2] == "pass", DurationMS: ms,
		Overridden: strings.Contains(m[4], " overridden"), Cached: strings.Contains(m[4], " cached")}, nil
}

// values groups trailer values by key, case-insensitively as git matches keys.
func values(ts []record.Trailer) map[string][]string {
	m := map[string][]string{}
	for _, t := range ts {
		k := strings.ToLower(t.Key)
		m[k] = append(m[k], t.Value)
	}
	return m
}

func classify(c gitops.Commit) parsed {
	v := values(record.ParseTrailers(c.Message))
	get := func(key string) []string { return v[strings.ToLower(key)] }
	runs := get(record.TrailerRun)
	if len(runs) == 0 {
		return parsed{kind: kindOther}
	}
	p := parsed{kind: kindRunOther, run: runs[0]}
	if refs := get(record.TrailerRefs); len(refs) > 0 {
		p.plan = refs[0]
	}
	for _, s := range get(record.TrailerSkipped) {
		for _, id := range splitRE.Split(strings.TrimSpace(s), -1) {
			if id != "" {
				p.skipped = append(p.skipped, id)
			}
		}
	}
	tasks := get(record.TrailerTask)
	if len(tasks) == 0 {
		p.finished = get(record.TrailerFinished) // a run's closing commit: the skipped tasks'
		for _, r := range get(record.TrailerRollback) {
			if strings.EqualFold(r, "true") {
				p.kind = kindRollback
			}
		}
		return p
	}
	p.kind = kindTask
	p.task = taskCommit(c, get, tasks[0], p.plan)
	for _, f := range get(record.TrailerFinished) {
		if how, own := strings.CutPrefix(f, tasks[0]+" "); own && p.task.Finished == "" {
			p.task.Finished = how
			continue
		}
		p.finished = append(p.finished, f)
	}
	return p
}

// taskCommit reads a task commit's trailers, noting in Problems each one
// missing, repeated or malformed.
func taskCommit(c gitops.Commit, get func(string) []string, id, plan string) TaskCommit {
	t := TaskCommit{ID: id, Subject: c.Subject, Commit: c.SHA, Tree: c.Tree, Plan: plan, Time: c.Time, Gates: []Gate{},
		Warnings: get(record.TrailerWarning)}
	if len(c.Parents) > 0 {
		t.Parent = c.Parents[0]
	}
	bad := func(format string, args ...any) { t.Problems = append(t.Problems, fmt.Sprintf(format, args...)) }
	one := func(key string, re *regexp.Regexp) string {
		vs := get(key)
		switch {
		case len(vs) == 0:
			bad("no %s trailer", key)
			return ""
		case len(vs) > 1:
			bad("%d %s trailers, want one", len(vs), key)
		}
		if re != nil && !re.MatchString(vs[0]) {
			bad("malformed %s %q", key, vs[0])
		}
		return vs[0]
	}
	one(record.TrailerRun, runRE)
	one(record.TrailerTask, taskRE)
	one(record.TrailerRefs, nil)
	t.TaskHash = one(record.TrailerTaskHash, hashRE)
	t.Executor = one(record.TrailerExecutor, nil)
	if vs := get(record.TrailerSandbox); len(vs) > 0 {
		t.Sandbox = vs[0]
	}
	if vs := get(record.TrailerLabel); len(vs) > 0 {
		t.Label = vs[0]
	}
	if vs := get(record.TrailerCost); len(vs) > 0 {
		if c, err := record.ParseCost(vs[0]); err != nil {
			bad("%s: %v", record.TrailerCost, err)
		} else {
			t.Cost = &c
		}
	}
	if !strings.HasPrefix(c.Subject, t.ID+": ") {
		bad("subject %q does not start with %q", c.Subject, t.ID+": ")
	}
	for _, g := range get(record.TrailerGate) {
		gate, err := ParseGate(g)
		if err != nil {
			bad("%v", err)
			continue
		}
		t.Gates = append(t.Gates, gate)
	}
	for _, g := range get(record.TrailerWaveGate) {
		gate, err := ParseGate(g)
		if err != nil {
			bad("%s: %v", record.TrailerWaveGate, err)
			continue
		}
		t.WaveGates = append(t.WaveGates, gate)
	}
	return t
}
