package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/planx-dev/planx/internal/record"
)

// Transcript names the machine-readable output a preset's CLI writes (JSON
// lines on stdout): planx reads the model use and the tool calls from it,
// and shows a readable line for each event.
type Transcript string

// The transcript formats of the presets.
const (
	// NoTranscript: plain text (aider, a custom command).
	NoTranscript Transcript = ""
	// ClaudeStream is claude's (and qwen's) `--output-format stream-json`:
	// assistant messages with tool_use blocks, user messages with
	// tool_result blocks (is_error), a last `result` with usage and
	// total_cost_usd.
	ClaudeStream Transcript = "claude-stream-json"
	// CodexJSON is `codex exec --json`: item.completed events
	// (command_execution with exit_code and status, file_change, …) and
	// turn.completed with usage.
	CodexJSON Transcript = "codex-json"
	// GeminiStream is gemini's `--output-format stream-json`: tool_use and
	// tool_result (status success or error) events, a last `result` with
	// stats.
	GeminiStream Transcript = "gemini-stream-json"
	// OpencodeJSON is `opencode run --format json`: tool_use parts with
	// their state, step_finish parts with tokens and cost.
	OpencodeJSON Transcript = "opencode-json"
	// AiderText is aider's plain output, whose "Tokens: 1.6k sent, 997
	// received. Cost: $0.02 message, $0.05 session." line after each
	// model reply is all it reports (no tool calls).
	AiderText Transcript = "aider-text"
)

// maxLine bounds the line a Meter parses: a longer one (a huge tool
// result) is passed over, not buffered without end.
const maxLine = 4 << 20

// ToolCall is one tool call a transcript reports.
type ToolCall struct {
	ID     string
	Name   string // the tool as the CLI names it (Bash, exec_command, …)
	What   string // its command or file, shortened
	Done   bool   // its result was seen
	Failed bool
	Error  string // the first line of a failed call's result
}

// Meter reads an agent's transcript as it is written (it is an io.Writer
// on the agent's output): the cost so far and the tool calls, and a
// readable line per event for Out.
type Meter struct {
	format Transcript
	// Out receives the readable lines (nil: none); lines that are not
	// part of the transcript (a CLI's warnings) pass through as they are.
	Out io.Writer
	// OnCost is called, under the meter's lock, each time the cost so far
	// grows: a budget can stop the agent before it ends.
	OnCost func(record.Cost)

	mu       sync.Mutex
	buf      []byte
	skipping bool // inside a line longer than maxLine
	parts    map[string]record.Cost
	order    []string
	final    *record.Cost // a total the CLI gave at its end, which replaces the sum of parts
	// sessionUSD is the price of the whole session so far, where the CLI
	// gives that rather than each part's (aider).
	sessionUSD *float64
	calls      []ToolCall
	byID       map[string]int
	tail       []string
	answer     string // the text of the model's last message
}

// Answer is the text of the model's last message in the transcript ("" for
// none, or a plain-text agent): what a reviewer concluded.
func (m *Meter) Answer() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.answer
}

// NewMeter reads transcripts in format f.
func NewMeter(f Transcript) *Meter {
	return &Meter{format: f, parts: map[string]record.Cost{}, byID: map[string]int{}}
}

// Write takes the next bytes of the agent's output.
func (m *Meter) Write(b []byte) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	rest := b
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			if !m.skipping {
				m.buf = append(m.buf, rest...)
			}
			if len(m.buf) > maxLine {
				m.buf, m.skipping = nil, true
			}
			break
		}
		if !m.skipping {
			m.line(string(append(m.buf, rest[:i]...)))
		}
		m.buf, m.skipping, rest = m.buf[:0], false, rest[i+1:]
	}
	return len(b), nil
}

// Close reads a last line the output did not end with a newline.
func (m *Meter) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.buf) > 0 && !m.skipping {
		m.line(string(m.buf))
	}
	m.buf = nil
}

// line reads one line of output.
func (m *Meter) line(s string) {
	if len(s) > maxLine {
		return
	}
	s = strings.TrimRight(s, "\r")
	if m.format == AiderText {
		before := m.costLocked()
		m.aider(s)
		m.show(s)
		if now := m.costLocked(); now != before && m.OnCost != nil {
			m.OnCost(now)
		}
		return
	}
	var ev map[string]any
	if m.format == NoTranscript || !strings.HasPrefix(strings.TrimSpace(s), "{") || json.Unmarshal([]byte(s), &ev) != nil {
		m.show(s)
		return
	}
	before := m.costLocked()
	var shown []string
	switch m.format {
	case ClaudeStream:
		shown = m.claude(ev)
	case CodexJSON:
		shown = m.codex(ev)
	case GeminiStream:
		shown = m.gemini(ev)
	case OpencodeJSON:
		shown = m.opencode(ev)
	}
	for _, l := range shown {
		m.show(l)
	}
	if now := m.costLocked(); now != before && m.OnCost != nil {
		m.OnCost(now)
	}
}

// show writes a readable line to Out and keeps it for Tail.
func (m *Meter) show(s string) {
	if m.Out != nil {
		fmt.Fprintln(m.Out, s)
	}
	m.tail = append(m.tail, s)
	if len(m.tail) > 200 {
		m.tail = append(m.tail[:0], m.tail[len(m.tail)-100:]...)
	}
}

// Tail is the last n readable lines.
func (m *Meter) Tail(n int) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.tail
	if len(t) > n {
		t = t[len(t)-n:]
	}
	return strings.Join(t, "\n")
}

// Cost is the model use the transcript reported so far, and whether it
// reported any.
func (m *Meter) Cost() (record.Cost, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.costLocked(), m.final != nil || len(m.parts) > 0 || m.sessionUSD != nil
}

func (m *Meter) costLocked() record.Cost {
	if m.final != nil {
		return *m.final
	}
	var c record.Cost
	for _, id := range m.order {
		c = c.Add(m.parts[id])
	}
	if m.sessionUSD != nil {
		c.USD, c.HasUSD = *m.sessionUSD, true
	}
	return c
}

// part records the cost of one message or step, by id: a CLI that
// reports a message's usage again (each content block of it) replaces it.
func (m *Meter) part(id string, c record.Cost) {
	if _, ok := m.parts[id]; !ok {
		m.order = append(m.order, id)
	}
	m.parts[id] = c
}

// Calls are the tool calls seen, in order.
func (m *Meter) Calls() []ToolCall {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]ToolCall(nil), m.calls...)
}

// call records a tool call's start.
func (m *Meter) call(id, name, what string) {
	if _, ok := m.byID[id]; ok && id != "" {
		return
	}
	m.byID[id] = len(m.calls)
	m.calls = append(m.calls, ToolCall{ID: id, Name: name, What: short(what, 80)})
}

// result records a tool call's end; a result for a call not seen starts
// one (codex reports a call once, at its end).
func (m *Meter) result(id, name, what string, failed bool, out string) {
	i, ok := m.byID[id]
	if !ok || id == "" {
		m.call(id, name, what)
		i = len(m.calls) - 1
	}
	c := &m.calls[i]
	c.Done, c.Failed = true, failed
	if failed {
		c.Error = short(out, 160)
	}
}
