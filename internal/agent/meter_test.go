package agent

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/record"
)

// The transcripts in testdata are the real CLIs' output (the versions of
// .ci/agents) against internal/modelstub with a three-turn script of
// 1000 input and 100 output tokens a turn: "recovers" runs a shell
// command that fails, then one that succeeds; "allfail" runs a shell
// command and a file read that both fail.
var meterCases = []struct {
	file   string
	format Transcript
	cost   record.Cost
	calls  int
	failed int
}{
	{"claude-recovers", ClaudeStream, record.Cost{In: 3000, Out: 300, USD: 0.018, HasUSD: true}, 2, 1},
	{"claude-allfail", ClaudeStream, record.Cost{In: 3000, Out: 300, USD: 0.018, HasUSD: true}, 2, 2},
	{"qwen-recovers", ClaudeStream, record.Cost{In: 3000, Out: 300}, 2, 1},
	{"qwen-allfail", ClaudeStream, record.Cost{In: 3000, Out: 300}, 2, 2},
	{"codex-recovers", CodexJSON, record.Cost{In: 3000, Out: 300}, 2, 1},
	{"codex-allfail", CodexJSON, record.Cost{In: 3000, Out: 300}, 2, 2},
	// gemini's router request (10 in, 1 out) counts; its shell tool
	// reports a command's non-zero exit as a success.
	{"gemini-recovers", GeminiStream, record.Cost{In: 3010, Out: 301}, 2, 0},
	{"gemini-allfail", GeminiStream, record.Cost{In: 3010, Out: 301}, 2, 1},
	{"opencode-recovers", OpencodeJSON, record.Cost{In: 3000, Out: 300}, 2, 1},
	{"opencode-allfail", OpencodeJSON, record.Cost{In: 3000, Out: 300}, 2, 2},
}

func TestMeterReadsEachCLIsTranscript(t *testing.T) {
	for _, c := range meterCases {
		t.Run(c.file, func(t *testing.T) {
			b, err := os.ReadFile("testdata/" + c.file + ".jsonl")
			if err != nil {
				t.Fatal(err)
			}
			var shown bytes.Buffer
			m := NewMeter(c.format)
			m.Out = &shown
			// Written in pieces that split lines, as a pipe delivers them.
			for len(b) > 0 {
				n := min(len(b), 97)
				if _, err := m.Write(b[:n]); err != nil {
					t.Fatal(err)
				}
				b = b[n:]
			}
			m.Close()
			got, ok := m.Cost()
			if !ok || got.In != c.cost.In || got.Out != c.cost.Out || got.HasUSD != c.cost.HasUSD || (got.USD-c.cost.USD)*(got.USD-c.cost.USD) > 1e-12 {
				t.Errorf("cost = %+v (reported %v), want %+v", got, ok, c.cost)
			}
			calls, failed := m.Calls(), 0
			for _, call := range calls {
				if !call.Done {
					t.Errorf("call without its result: %+v", call)
				}
				if call.Failed {
					failed++
					if !strings.Contains(call.Error, "No such file") && !strings.Contains(call.Error, "not") {
						t.Errorf("failed call's error does not say why: %+v", call)
					}
				}
			}
			if len(calls) != c.calls || failed != c.failed {
				t.Errorf("calls %d, failed %d; want %d, %d: %+v", len(calls), failed, c.calls, c.failed, calls)
			}
			all := AllFailed(calls)
			if (all != "") != (c.failed == c.calls) {
				t.Errorf("AllFailed = %q with %d of %d failed", all, failed, len(calls))
			}
			out := shown.String()
			if strings.Contains(out, `{"type"`) || !strings.Contains(out, "Done it.") || !strings.Contains(out, "> ") {
				t.Errorf("the readable lines are not readable:\n%s", out)
			}
		})
	}
}

func TestMeterCostGrowsAsItStreams(t *testing.T) {
	b, err := os.ReadFile("testdata/claude-recovers.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var seen []int64
	m := NewMeter(ClaudeStream)
	m.OnCost = func(c record.Cost) { seen = append(seen, c.Tokens()) }
	_, _ = m.Write(b)
	// Three messages of 1000 in (each message's usage repeated per content
	// block counts once), then the final total.
	if len(seen) < 3 || seen[0] != 1001 || seen[len(seen)-1] != 3300 {
		t.Errorf("costs seen as the transcript streamed: %v", seen)
	}
}

func TestMeterPassesPlainLinesAndLongLines(t *testing.T) {
	var shown bytes.Buffer
	m := NewMeter(CodexJSON)
	m.Out = &shown
	long := strings.Repeat("x", maxLine+10)
	_, _ = m.Write([]byte("warning: something\n" + long + "\n{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":7,\"output_tokens\":3}}\nlast"))
	m.Close()
	if c, ok := m.Cost(); !ok || c != (record.Cost{In: 7, Out: 3}) {
		t.Errorf("cost after a long line = %+v", c)
	}
	if out := shown.String(); !strings.HasPrefix(out, "warning: something\n") || !strings.HasSuffix(out, "last\n") || strings.Contains(out, long) {
		t.Errorf("shown:\n%.200s", out)
	}
	if tail := m.Tail(2); tail != "usage: tokens in=7 out=3\nlast" {
		t.Errorf("Tail = %q", tail)
	}
}

func TestAllFailedNamesTheFailures(t *testing.T) {
	calls := []ToolCall{
		{Name: "Bash", What: "go test ./...", Done: true, Failed: true, Error: "EACCES: mkdir ~/.claude"},
		{Name: "Read", What: "a.go", Done: true, Failed: true, Error: "denied"},
		{Name: "Bash", What: "sleep", Done: false},
	}
	got := AllFailed(calls)
	if want := "every tool call the agent made failed (2 of 2): Bash go test ./...: EACCES: mkdir ~/.claude; Read a.go: denied"; got != want {
		t.Errorf("AllFailed = %q\nwant %q", got, want)
	}
	calls[1].Failed = false
	if got := AllFailed(calls); got != "" {
		t.Errorf("one call succeeded, yet AllFailed = %q", got)
	}
	if got := AllFailed(nil); got != "" {
		t.Errorf("no calls, yet AllFailed = %q", got)
	}
}

func TestReadUsageFile(t *testing.T) {
	dir := t.TempDir()
	p := dir + "/usage.json"
	if _, ok, err := ReadUsageFile(p); ok || err != nil {
		t.Errorf("absent file: ok %v err %v", ok, err)
	}
	_ = os.WriteFile(p, []byte(`{"input_tokens": 1200, "output_tokens": 80, "usd": 0.25}`), 0o600)
	if c, ok, err := ReadUsageFile(p); !ok || err != nil || c != (record.Cost{In: 1200, Out: 80, USD: 0.25, HasUSD: true}) {
		t.Errorf("ReadUsageFile = %+v %v %v", c, ok, err)
	}
	for _, bad := range []string{`{"tokens": 3}`, `{}`, `{"input_tokens": -1}`, `nonsense`} {
		_ = os.WriteFile(p, []byte(bad), 0o600)
		if _, _, err := ReadUsageFile(p); err == nil {
			t.Errorf("ReadUsageFile accepted %s", bad)
		}
	}
}

// aider's output as its source writes it (aider/coders/base_coder.py,
// calculate_and_show_tokens_and_cost); aider is not run here.
func TestMeterReadsAiderUsageLines(t *testing.T) {
	var shown bytes.Buffer
	m := NewMeter(AiderText)
	m.Out = &shown
	_, _ = m.Write([]byte("Applied edit to calc.go\n" +
		"Tokens: 1.6k sent, 997 received. Cost: $0.02 message, $0.02 session.\n" +
		"Tokens: 16k sent, 2.1k cache write, 8.2k cache hit, 1.2k received. Cost: $0.03 message, $0.05 session.\n"))
	m.Close()
	c, ok := m.Cost()
	if want := (record.Cost{In: 17600, Out: 2197, USD: 0.05, HasUSD: true}); !ok || c != want {
		t.Errorf("cost = %+v (reported %v), want %+v", c, ok, want)
	}
	if !strings.HasPrefix(shown.String(), "Applied edit to calc.go\nTokens: 1.6k sent") {
		t.Errorf("aider's lines are not shown as they are:\n%s", shown.String())
	}
	m = NewMeter(AiderText)
	_, _ = m.Write([]byte("Tokens: 116 sent, 30 received.\n"))
	if c, _ := m.Cost(); c != (record.Cost{In: 116, Out: 30}) {
		t.Errorf("a model without prices: %+v", c)
	}
}

// A CLI that ends badly says why in its transcript's last event; that line
// is what the failure's tail must show.
func TestMeterShowsHowATranscriptEndedBadly(t *testing.T) {
	for _, c := range []struct {
		format Transcript
		line   string
		want   string
	}{
		// claude's shape (not captured: it retries a 401 for minutes).
		{ClaudeStream, `{"type":"result","subtype":"success","is_error":true,"result":"Invalid API key · Please run /login","usage":{"input_tokens":0,"output_tokens":0}}`, "error: Invalid API key · Please run /login"},
		// The others are the pinned CLIs' own last lines against
		// modelstub answering every request with a 401.
		{CodexJSON, `{"type":"turn.failed","error":{"message":"unexpected status 401 Unauthorized: invalid api key stub, url: http://127.0.0.1:42867/v1/responses"}}`, "error: unexpected status 401 Unauthorized: invalid api key stub"},
		{CodexJSON, `{"type":"error","message":"Reconnecting... 1/5 (unexpected status 401 Unauthorized: invalid api key stub)"}`, "error: Reconnecting... 1/5"},
		{GeminiStream, `{"type":"result","timestamp":"2026-11-28T07:33:19.782Z","status":"error","error":{"type":"unknown","message":"[API Error: {\"error\":{\"code\":401,\"message\":\"invalid api key stub\",\"status\":\"UNAUTHENTICATED\"}}]"},"stats":{"total_tokens":11,"input_tokens":10,"output_tokens":1}}`, `error: [API Error: {"error":{"code":401,"message":"invalid api key stub"`},
		{OpencodeJSON, `{"type":"error","timestamp":1795851216397,"sessionID":"ses_x","error":{"name":"APIError","data":{"message":"invalid api key stub","statusCode":401,"isRetryable":false}}}`, "error: invalid api key stub"},
		{ClaudeStream, `{"type":"result","subtype":"error_during_execution","uuid":"7172798e","is_error":true,"num_turns":1,"usage":{"input_tokens":0,"output_tokens":0,"cache_read_input_tokens":0},"permission_denials":[],"error":{"message":"[API Error: 401 invalid api key stub]"}}`, "error: error_during_execution [API Error: 401 invalid api key stub]"},
	} {
		m := NewMeter(c.format)
		_, _ = m.Write([]byte(c.line + "\n"))
		if tail := m.Tail(5); !strings.Contains(tail, c.want) {
			t.Errorf("%s: tail %q lacks %q", c.format, tail, c.want)
		}
	}
}
