package planparse

// TaskID is planx's canonical task identifier, always of the form T001.
// Formats without T-IDs get one by position; their own label is kept in Task.Label.
type TaskID string

// Format names a plan dialect.
type Format string

// Dialects planx reads. FormatAuto asks Parse to detect one.
const (
	FormatAuto        Format = ""
	FormatNative      Format = "native" // planx's own format, also memory-bank plans
	FormatSpecKit     Format = "speckit"
	FormatKiro        Format = "kiro"
	FormatSuperpowers Format = "superpowers"
	FormatPhased      Format = "phased"
	FormatTaskMaster  Format = "taskmaster"
	FormatCursor      Format = "cursor" // Cursor plans: the todos list in the front matter
	FormatGSD         Format = "gsd"    // GSD plans: <task> blocks
	// FormatChecklist is the fallback for plain GFM checklists without a known
	// dialect: every checkbox item outside acceptance/DoD-style lists is a task.
	FormatChecklist Format = "checklist"
)

// Status is a task's state as written in the plan.
type Status string

// Task statuses.
const (
	StatusOpen       Status = "open"
	StatusDone       Status = "done"
	StatusInProgress Status = "in-progress"
	StatusOptional   Status = "optional"
)

// FileAction says what a task declares it does to a file.
type FileAction string

// File actions. ActionTouch is used when a plan names a path without saying how.
const (
	ActionCreate FileAction = "create"
	ActionModify FileAction = "modify"
	ActionTest   FileAction = "test"
	ActionDelete FileAction = "delete"
	ActionTouch  FileAction = "touch"
)

// File is a path a task declares, relative to the repository root, slash-separated.
type File struct {
	Path   string     `json:"path"`
	Action FileAction `json:"action"`
}

// Step is an executable step: a fenced block whose info string carries the word
// `run` after the language (```sh run). Plain ```bash blocks are documentation.
type Step struct {
	Lang string `json:"lang"`
	Code string `json:"code"`
	Line int    `json:"line"`
}

// Severity of a diagnostic.
type Severity string

// Diagnostic severities.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
	SeverityInfo    Severity = "info"
)

// Diagnostic is a problem found in a plan, with the 1-based line it concerns
// (0 when it concerns the whole file) and a hint on how to fix it.
type Diagnostic struct {
	Severity Severity `json:"severity"`
	Line     int      `json:"line"`
	Message  string   `json:"message"`
	Hint     string   `json:"hint,omitempty"`
}

// GateDecl is a quality gate declared in the plan's front matter.
type GateDecl struct {
	Name    string `json:"name" yaml:"name"`
	Command string `json:"command" yaml:"command"`
	Timeout string `json:"timeout,omitempty" yaml:"timeout"`
	When    string `json:"when,omitempty" yaml:"when"` // "each" (default) or "final"
	// Fix: the gate may rewrite files (gofmt -w), as `fix: true` in
	// .planx.yaml; its changes are committed with the task.
	Fix bool `json:"fix,omitempty" yaml:"fix"`
}

// Phase is a heading that groups tasks (a phase or a milestone).
type Phase struct {
	Title string `json:"title"`
	Line  int    `json:"line"`
	// Intro is the phase's text before its first task: the context its
	// tasks were written in (the agent's prompt carries it).
	Intro string `json:"-"`
}

// Task is one unit of work: one task, one commit.
type Task struct {
	ID         TaskID   `json:"id"`
	Label      string   `json:"label,omitempty"` // the plan's own identifier (T001, 1.1, Task 3)
	Title      string   `json:"title"`
	Body       string   `json:"body"` // full source text of the task, as written
	Status     Status   `json:"status"`
	Parallel   bool     `json:"parallel"`
	Labels     []string `json:"labels,omitempty"` // story and other bracket labels, e.g. US1
	Phase      string   `json:"phase,omitempty"`
	Parent     TaskID   `json:"parent,omitempty"`
	DependsOn  []TaskID `json:"depends_on"`
	Files      []File   `json:"files"`
	Acceptance []string `json:"acceptance,omitempty"`
	// ChangesTests are the tests (names, or test files) whose assertions
	// at the base the task changes on purpose (`Changes tests:`): the judge
	// does not hold the task to their base form.
	ChangesTests []string `json:"changes_tests,omitempty"`
	Steps        []Step   `json:"steps"`
	Gates        []string `json:"gates,omitempty"` // per-task gate selection by name; nil means all
	BlastRadius  string   `json:"blast_radius,omitempty"`
	Executor     string   `json:"executor,omitempty"`   // shell, agent, manual; empty means plan default
	Checkpoint   bool     `json:"checkpoint,omitempty"` // verification-only: may change nothing
	// Optional tasks ("- [ ]* 2.3", "(optional)" in the title) run only when asked (--optional).
	Optional bool `json:"optional,omitempty"`
	// Children are the task's sub-tasks, in file order. A task with children
	// is a group: it has no work of its own and is done when they are.
	Children []TaskID `json:"children,omitempty"`

	Line int `json:"line"` // 1-based line of the task's first line
	// Start and End are the byte range [Start, End) of the task in the source.
	Start int `json:"-"`
	End   int `json:"-"`
	// Checkbox is the byte offset of the character inside "[ ]" ("x", " ", ...),
	// or -1 when the task has no checkbox.
	Checkbox int `json:"-"`
	// fromJSON marks a task read from task-master's tasks.json: its Body is JSON,
	// and its "status" value (statusAt, empty when it has none) is what Tick sets.
	fromJSON bool
	statusAt span
}

// Plan is a parsed plan file.
type Plan struct {
	Path        string         `json:"path"`
	Title       string         `json:"title"`
	Topic       string         `json:"topic"`
	Format      Format         `json:"format"`
	FrontMatter map[string]any `json:"front_matter,omitempty"`
	Phases      []Phase        `json:"phases,omitempty"`
	Gates       []GateDecl     `json:"gates,omitempty"`
	Agent       string         `json:"agent,omitempty"`    // front-matter agent command or preset
	Executor    string         `json:"executor,omitempty"` // front-matter default executor
	Tasks       []*Task        `json:"tasks"`
	Diagnostics []Diagnostic   `json:"diagnostics"`
	Source      []byte         `json:"-"`
}
