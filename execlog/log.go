package execlog

import (
	"strings"
	"time"

	"github.com/planx-dev/planx/internal/record"
)

// Log is one run's execution log. It is not safe for concurrent use: the
// executor is its only writer.
type Log struct {
	Path        string           `json:"path"` // repo-relative, slash-separated
	Title       string           `json:"title"`
	Topic       string           `json:"topic"`
	PlanPath    string           `json:"plan_path"`
	RunID       string           `json:"run_id"`
	StartCommit string           `json:"start_commit"` // the rollback commit
	Branch      string           `json:"branch"`
	Started     time.Time        `json:"started"`
	Finished    time.Time        `json:"finished,omitzero"` // zero while running
	Status      record.RunStatus `json:"status"`
	// NextStep replaces the summary's default advice, which is derived
	// from Status, when the executor knows better.
	NextStep  string  `json:"next_step,omitempty"`
	Preflight []Check `json:"preflight"`
	// Total is how many tasks the run set out to do: Tasks has an entry
	// only for a task that started, so at a stop it holds fewer.
	Total  int     `json:"total,omitempty"`
	Tasks  []Task  `json:"tasks"`
	Issues []Issue `json:"issues"`
	// cache holds the entries' rendered bytes (cache.go).
	cache *cache
}

// Check is a pre-flight check.
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
}

// Issue is a problem met during the run and what was done about it.
type Issue struct {
	Task       string    `json:"task,omitempty"`
	What       string    `json:"what"`
	Resolution string    `json:"resolution,omitempty"` // empty while open
	Time       time.Time `json:"time,omitzero"`
}

// Resolve records how the open issues of task were resolved ("fixed: ...",
// "retried: ...", "skipped: ..."). The returned func reopens them, for a
// commit that did not happen after all.
func (l *Log) Resolve(task, how string) (reopen func()) {
	var idx []int
	for i := range l.Issues {
		if l.Issues[i].Task == task && l.Issues[i].Resolution == "" {
			l.Issues[i].Resolution = how
			idx = append(idx, i)
		}
	}
	return func() {
		for _, i := range idx {
			l.Issues[i].Resolution = ""
		}
	}
}

// Task is one task's record.
type Task struct {
	ID       string            `json:"id"`
	Label    string            `json:"label,omitempty"` // the plan's own identifier when it differs
	Title    string            `json:"title"`
	Status   record.TaskStatus `json:"status"`
	Executor string            `json:"executor,omitempty"`
	// Sandbox is the confinement the executor ran under (Planx-Sandbox); "" for none recorded.
	Sandbox string `json:"sandbox,omitempty"`
	// Outside are the paths an agent wrote outside its work tree in its
	// task space (absolute; " (deleted)" after a removal): none of them
	// reached the machine, and the log says what it tried.
	Outside []string `json:"outside,omitempty"`
	// Cost is what the task's agent reported its model use cost, over all
	// its attempts (Planx-Cost); zero when it reported none.
	Cost record.Cost `json:"cost,omitzero"`
	// Review is the review gate's verdict as Planx-Review says it ("pass by
	// codex/gpt-5; 2 findings"), and Agent the task's own agent as
	// Planx-Agent names it (preset or command, and model): "" without a
	// review.
	Review string `json:"review,omitempty"`
	Agent  string `json:"agent,omitempty"`
	// Hidden are, by test gate, how many hidden tests ran and passed with
	// the task's work ("test 3 ran, 3 passed"): Planx-Hidden-Tests.
	Hidden []string `json:"hidden,omitempty"`
	// Commit is the task's commit. A commit cannot contain its own SHA, so
	// the log committed with a task shows "this commit" and the SHA is
	// filled in when a later task commits.
	Commit   string    `json:"commit,omitempty"`
	Files    []string  `json:"files,omitempty"`
	Commands []Command `json:"commands,omitempty"`
	Gates    []Gate    `json:"gates,omitempty"`
	Started  time.Time `json:"started,omitzero"`
	Finished time.Time `json:"finished,omitzero"`
	Failure  string    `json:"failure,omitempty"` // what failed and how
	Attempts int       `json:"attempts,omitempty"`
}

// Command is a step or agent command that ran.
type Command struct {
	Name     string        `json:"name"` // e.g. "step 2"
	Command  string        `json:"command"`
	ExitCode int           `json:"exit_code"`
	Duration time.Duration `json:"duration"`
	TimedOut bool          `json:"timed_out,omitempty"`
	Tail     string        `json:"tail,omitempty"`
}

// Gate is a gate result.
type Gate struct {
	Name       string        `json:"name"`
	Command    string        `json:"command"`
	Passed     bool          `json:"passed"`
	ExitCode   int           `json:"exit_code"`
	Duration   time.Duration `json:"duration"`
	TimedOut   bool          `json:"timed_out,omitempty"`
	Tail       string        `json:"tail,omitempty"`
	OutputPath string        `json:"output_path,omitempty"`
	// Cached: not run, because it passed on the same tree before (see
	// executor's gate records); Overridden: defined by a --gate flag in
	// place of the plan's or the config's gate of that name.
	Cached     bool `json:"cached,omitempty"`
	Overridden bool `json:"overridden,omitempty"`
	// Fixed lists what a fixer gate (fix: true) changed, committed with the task.
	Fixed []string `json:"fixed,omitempty"`
	// Tests is the gate's tests judged against the base, as Planx-Tests
	// says it ("12 passed (+1 new) 0 failed 0 skipped"); "" when only its
	// exit code was read.
	Tests string `json:"tests,omitempty"`
	// Known are the failing tests the gate's output named, every one of
	// which failed at the run's baseline too: the gate counts as passed
	// (planx run --accept-baseline-failures) with a warning naming them.
	Known []string `json:"known,omitempty"`
}

// TaskByID returns the task with the given ID, or nil. The pointer is into
// l.Tasks, so changes through it are part of the log.
func (l *Log) TaskByID(id string) *Task {
	for i := range l.Tasks {
		if l.Tasks[i].ID == id {
			return &l.Tasks[i]
		}
	}
	return nil
}

// FileName is the log's file name for a run started at started:
// "2006-01-02_15-04-05_<topic>.md" (UTC), the memory-bank convention.
// Characters unsafe in a file name become '-'.
func FileName(started time.Time, topic string) string {
	var b strings.Builder
	dash := false
	for _, r := range topic {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.'
		if !ok {
			dash = b.Len() > 0
			continue
		}
		if dash {
			b.WriteByte('-')
			dash = false
		}
		b.WriteRune(r)
	}
	t := strings.TrimLeft(b.String(), ".-")
	if t == "" {
		t = "run"
	}
	return started.UTC().Format("2006-01-02_15-04-05") + "_" + t + ".md"
}
