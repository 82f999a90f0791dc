package progress

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// Progress prints what the run does: permanent lines everywhere, plus on
// a terminal a status line (task n/N, current step or gate, elapsed)
// redrawn in place, or while a wave's tasks run together a board of one
// such line per task running.
type Progress struct {
	w           io.Writer
	tty         bool
	color       bool
	ev          *events
	github      bool
	summaryPath string
	follow      bool // stream child output (--follow)
	plan        string
	rows        []string // step summary rows
	now         func() time.Time
	size        func() (cols, lines int) // the terminal's
	redraw      time.Duration            // how often the live lines' times are redrawn

	mu     sync.Mutex
	status string
	// together: several tasks run at once (a parallel wave), so every
	// line about a task names it (Together), and a terminal shows the
	// board in place of the status line.
	together bool
	board    board
	since    time.Time
	stopped  chan struct{}
}

func New(o Output) *Progress {
	p := &Progress{w: o.Out, tty: o.Terminal, color: o.Color, github: o.GitHub, summaryPath: o.SummaryPath, follow: o.Follow,
		now: time.Now, size: terminalSize(o.Out), redraw: 250 * time.Millisecond}
	if p.w == nil {
		p.w = io.Discard
	}
	if o.JSON {
		p.ev = &events{enc: json.NewEncoder(p.w)}
		p.w, p.tty, p.color = o.Err, false, false
		if p.w == nil {
			p.w = io.Discard
		}
	}
	return p
}

func (p *Progress) paint(code, s string) string {
	if !p.color {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (p *Progress) RunStart(plan, runID string, base gitops.SHA, n int) {
	p.plan = plan
	p.ev.emit(Event{Event: "run_start", RunID: runID, Plan: plan, Total: n, Commit: string(base)})
	p.Println("planx: running %s: %s, run %s", plan, textsafe.Count(n, "task"), runID)
	p.Println("planx: rollback commit %s", base.Short())
}

func (p *Progress) TaskStart(i, n int, t *planparse.Task) {
	p.ev.emit(Event{Event: "task_start", Task: string(t.ID), Label: t.Label, Title: t.Title, Index: i, Total: n})
	p.mu.Lock()
	p.board.know(t, i)
	p.mu.Unlock()
	p.Println("[%d/%d] %s %s", i, n, textsafe.Line(t.DisplayID()), textsafe.Line(textsafe.Shorten(t.Title, 70)))
	p.setStatus(fmt.Sprintf("[%d/%d] %s", i, n, textsafe.Line(t.DisplayID())))
}

func (p *Progress) Gate(id planparse.TaskID, g gates.Result) {
	p.ev.emit(Event{Event: "gate", Task: string(id), Name: g.Name, Passed: ptr(g.Passed),
		ExitCode: ptr(g.ExitCode), DurationMS: ptr(g.Duration.Milliseconds())})
	verdict := p.paint("32", "pass")
	if !g.Passed {
		verdict = p.paint("31", "FAIL")
	}
	p.Println("      %sgate %s: %s (%s)", p.who(id), textsafe.Line(g.Name), verdict, g.Duration.Round(time.Millisecond))
}

// stepEnd reports a finished step or agent run.
func (p *Progress) StepEnd(id planparse.TaskID, name string, exit int, d time.Duration) {
	p.ev.emit(Event{Event: "step_end", Task: string(id), Name: name, ExitCode: ptr(exit), DurationMS: ptr(d.Milliseconds())})
}

func (p *Progress) TaskDone(t *planparse.Task, sha gitops.SHA) {
	p.ev.emit(Event{Event: "task_end", Task: string(t.ID), Label: t.Label, Status: string(record.TaskDone), Commit: string(sha)})
	p.rows = append(p.rows, fmt.Sprintf("| %s | done | `%s` | %s |", t.DisplayID(), sha.Short(), t.Title))
	// While tasks run together its line leaves the board; else the
	// status line goes.
	p.mu.Lock()
	on := p.together
	p.board.drop(t.ID)
	p.mu.Unlock()
	if !on {
		p.clearLive()
	}
	p.Println("      %s %scommitted %s", p.paint("32", "✓"), p.who(t.ID), sha.Short())
}

// runWarn is a warning about the whole run, said once at its start.
func (p *Progress) RunWarn(msg string) {
	p.ev.emit(Event{Event: "warning", Message: msg})
	p.annotate("warning", p.plan, 0, msg)
	p.Println("planx: %s: %s", p.paint("33", "warning"), textsafe.Block(msg))
}

func (p *Progress) Warn(id planparse.TaskID, msg string) {
	p.ev.emit(Event{Event: "warning", Task: string(id), Message: msg})
	p.annotate("warning", p.plan, 0, string(id)+": "+msg)
	p.Println("      %s %s: %s", p.paint("33", "warning"), id, textsafe.Block(msg))
}

func (p *Progress) TaskStopped(t *planparse.Task, rs record.RunStatus, what, tail string, see []string, next string) {
	p.clearLive()
	status := string(rs)
	p.ev.emit(Event{Event: "task_end", Task: string(t.ID), Label: t.Label, Status: status, Message: what})
	p.ev.emit(Event{Event: "run_end", Status: status, Message: next})
	p.rows = append(p.rows, fmt.Sprintf("| %s | **%s** | | %s: %s |", t.DisplayID(), status, t.Title, what))
	p.writeSummary(status)
	if rs != record.RunWaiting {
		p.annotate("error", p.plan, t.Line, fmt.Sprintf("%s %s: %s", t.DisplayID(), status, what))
	}
	mark := p.paint("31", "✗ "+status)
	if rs == record.RunWaiting {
		mark = p.paint("33", "⏸ "+status)
	}
	p.Println("      %s: %s%s", mark, p.who(t.ID), textsafe.Block(what))
	if tail != "" {
		for _, l := range strings.Split(strings.TrimRight(tail, "\n"), "\n") {
			p.Println("      │ %s", textsafe.Line(expandTabs(l)))
		}
	}
	for _, l := range see {
		p.Println("      %s", textsafe.Line(expandTabs(l)))
	}
	if rs == record.RunWaiting {
		p.Println("planx: %s needs a person:\n\n%s\n\nDo it, then run `planx resume`.", textsafe.Line(t.DisplayID()), textsafe.Indent(textsafe.Block(t.Body), "    "))
		return
	}
	p.Println("planx: %s", next)
}

func (p *Progress) RunDone(logPath string, n int) {
	p.clearLive()
	p.ev.emit(Event{Event: "run_end", Status: string(record.RunCompleted), Log: logPath, Done: ptr(n)})
	p.writeSummary(string(record.RunCompleted))
	p.Println("planx: done: %s committed; execution log %s", textsafe.Count(n, "task"), logPath)
}

// expandTabs replaces the tabs of a line of output with spaces to the
// next multiple of 8 columns, as a terminal draws them: a one-line field
// would otherwise show them as \t.
func expandTabs(l string) string {
	if !strings.Contains(l, "\t") {
		return l
	}
	var b strings.Builder
	col := 0
	for _, r := range l {
		if r == '\t' {
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

func (p *Progress) writeSummary(status string) {
	if p.summaryPath == "" {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "### planx: %s — %s\n\n| Task | Status | Commit | Title |\n|---|---|---|---|\n", p.plan, status)
	for _, r := range p.rows {
		b.WriteString(r + "\n")
	}
	b.WriteString("\n")
	p.summary(b.String())
}

// Writer is where permanent lines go (a question to the user, a table).
func (p *Progress) Writer() io.Writer { return p.w }
