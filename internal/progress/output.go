package progress

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Output says how a run reports what it does.
type Output struct {
	Out      io.Writer // progress, or JSON events with JSON set
	Err      io.Writer // where human progress goes when Out carries JSON
	Terminal bool      // Out is a terminal: live status line
	Color    bool
	// JSON prints one JSON object per line on Out (run start, task start and
	// end, steps, gates, warnings, run end) for machines.
	JSON bool
	// GitHub adds GitHub Actions annotations on failures and warnings, and a
	// step summary written to SummaryPath ($GITHUB_STEP_SUMMARY).
	GitHub      bool
	SummaryPath string
	// Follow streams the output of steps, agents and gates as it comes,
	// each line prefixed with its task (on Err with JSON set).
	Follow bool
}

// events writes the JSON event stream.
type events struct {
	mu  sync.Mutex // a wave's tasks report at once
	enc *json.Encoder
}

// Event is one line of `--json` output. Fields beyond Event and Time depend
// on the kind; docs/schema/run-events.json describes them.
type Event struct {
	Event      string `json:"event"` // run_start, task_start, step_end, gate, warning, task_end, run_end
	Time       string `json:"time"`
	RunID      string `json:"run_id,omitempty"`
	Plan       string `json:"plan,omitempty"`
	Task       string `json:"task,omitempty"`
	Label      string `json:"label,omitempty"` // the plan's own ID of the task, when it has one
	Title      string `json:"title,omitempty"`
	Index      int    `json:"index,omitempty"`
	Total      int    `json:"total,omitempty"`
	Name       string `json:"name,omitempty"`
	Status     string `json:"status,omitempty"`
	Passed     *bool  `json:"passed,omitempty"`
	ExitCode   *int   `json:"exit_code,omitempty"`
	DurationMS *int64 `json:"duration_ms,omitempty"`
	Commit     string `json:"commit,omitempty"`
	Message    string `json:"message,omitempty"`
	Log        string `json:"log,omitempty"`
	Done       *int   `json:"done,omitempty"`
}

func (e *events) emit(ev Event) {
	if e == nil {
		return
	}
	ev.Time = time.Now().UTC().Format(time.RFC3339Nano)
	e.mu.Lock()
	defer e.mu.Unlock()
	_ = e.enc.Encode(ev)
}

func ptr[T any](v T) *T { return &v }

// annotate prints a GitHub Actions workflow command (error or warning).
func (p *Progress) annotate(kind, file string, line int, msg string) {
	if !p.github {
		return
	}
	loc := ""
	if file != "" {
		loc = " file=" + escapeProp(file)
		if line > 0 {
			loc += fmt.Sprintf(",line=%d", line)
		}
	}
	p.Println("::%s%s::%s", kind, loc, escapeData(msg))
}

// summary appends a markdown section to the GitHub step summary file.
func (p *Progress) summary(md string) {
	if p.summaryPath == "" {
		return
	}
	f, err := os.OpenFile(p.summaryPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.WriteString(md)
}

// Escaping as GitHub documents for workflow commands.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
