// Package modelstub is a scripted model endpoint on loopback for running real
// agent CLIs in tests. It replays a script of assistant turns, one per model
// request, in the wire format of the API that was called: Anthropic Messages,
// OpenAI Responses, OpenAI Chat Completions or Gemini generateContent,
// streamed as server-sent events when the request asks for a stream.
//
// Requests that are not part of the conversation (a CLI's title or topic
// request, token counting, model listing) are answered without consuming
// the script; see Options.IsSide. Every request is recorded.
package modelstub

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// ToolCall is one tool call of an assistant turn. Each CLI names its tools
// and shapes their arguments differently, so both are given verbatim.
type ToolCall struct {
	// Name is the tool's name as the CLI declared it.
	Name string
	// Args is the JSON object of arguments, sent as is.
	Args json.RawMessage
	// Kind is for the Responses API only: "" or "function" for a
	// function_call, "custom" for a custom_tool_call (freeform tools such as
	// codex's apply_patch) whose Input is sent as its input text.
	Kind string
	// Input is the freeform input of a custom tool call.
	Input string
	// ID is the call's id; one is made when empty.
	ID string
}

// Turn is one assistant reply: optional text, then tool calls.
type Turn struct {
	Text  string
	Calls []ToolCall
	// Usage overrides the token counts reported for this turn; zero means
	// the default (1000 input, 100 output).
	InputTokens, OutputTokens int
	// Status, when not zero, makes this turn an HTTP error: the reply has
	// this status and an error body in the API's shape, with Text as its
	// message (to see how a CLI fails on a rejected key or an overload).
	Status int
}

// API names the wire format a request was answered in.
type API string

const (
	Anthropic API = "anthropic"
	Responses API = "responses"
	Chat      API = "chat"
	Gemini    API = "gemini"
	Other     API = "other"
)

// Request is one recorded request.
type Request struct {
	API      API
	Method   string
	Path     string
	RawQuery string
	Header   http.Header
	Body     []byte
	// Turn is the index of the script turn that answered it; -1 for a side
	// request or one answered after the script was exhausted.
	Turn int
	// Side is true for a request answered without consuming the script.
	Side bool
	// Exhausted is true for a conversation request that came after the
	// last turn (answered with Options.Final).
	Exhausted bool
}

// JSON decodes the request body into a generic map (nil if it is not a JSON object).
func (r Request) JSON() map[string]any {
	var m map[string]any
	if json.Unmarshal(r.Body, &m) != nil {
		return nil
	}
	return m
}

// Options tunes a Server. The zero value is usable.
type Options struct {
	// Final is the text of the plain final turn sent once the script is
	// exhausted; "Done." when empty.
	Final string
	// SideText is the reply to side requests; "OK" when empty. A side
	// request that asks for JSON output with a schema (gemini cli's model
	// router and next-speaker check) gets instead a JSON value made from
	// the schema: each property present, the first enum value, "stub" for
	// strings, 1 for numbers, false, empty arrays.
	SideText string
	// IsSide decides whether a model request is a side request (answered
	// with SideText, script not consumed). Nil means DefaultIsSide.
	IsSide func(api API, path string, body map[string]any) bool
	// Log, when set, receives one line per request.
	Log func(format string, args ...any)
}

// Server is a running stub. Close it when done.
type Server struct {
	URL string

	srv    *httptest.Server
	opts   Options
	mu     sync.Mutex
	script []Turn
	next   int
	reqs   []Request
	seq    int
}

// New starts a stub on 127.0.0.1 with a random port that replays script.
func New(script []Turn, opts Options) *Server {
	s := &Server{opts: opts, script: script}
	if s.opts.Final == "" {
		s.opts.Final = "Done."
	}
	if s.opts.SideText == "" {
		s.opts.SideText = "OK"
	}
	if s.opts.IsSide == nil {
		s.opts.IsSide = DefaultIsSide
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	return s
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Requests returns a copy of every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Remaining is the number of script turns not yet sent.
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.script) - s.next
}

// Exhausted reports whether every script turn has been sent.
func (s *Server) Exhausted() bool { return s.Remaining() == 0 }

// DefaultIsSide treats as side requests: an Anthropic request that declares
// no tools (Claude Code's title, topic and quota requests), a Chat request
// without tools (opencode's title request), and a non-streaming Gemini
// generateContent (gemini cli's router and next-speaker checks).
func DefaultIsSide(api API, path string, body map[string]any) bool {
	switch api {
	case Anthropic, Chat:
		tools, _ := body["tools"].([]any)
		return len(tools) == 0
	case Gemini:
		return strings.HasSuffix(path, ":generateContent")
	}
	return false
}

func classify(method, path string) API {
	switch {
	case method != http.MethodPost:
		return Other
	case strings.HasSuffix(path, "/messages") && !strings.HasSuffix(path, "/count_tokens"):
		return Anthropic
	case strings.HasSuffix(path, "/responses"):
		return Responses
	case strings.HasSuffix(path, "/chat/completions"):
		return Chat
	case strings.Contains(path, "/models/") && (strings.HasSuffix(path, ":generateContent") || strings.HasSuffix(path, ":streamGenerateContent")):
		return Gemini
	}
	return Other
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	api := classify(r.Method, r.URL.Path)
	var m map[string]any
	_ = json.Unmarshal(body, &m)

	rec := Request{API: api, Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery,
		Header: r.Header.Clone(), Body: body, Turn: -1}
	var turn Turn
	s.mu.Lock()
	s.seq++
	seq := s.seq
	switch {
	case api == Other:
		rec.Side = true
	case s.opts.IsSide(api, r.URL.Path, m):
		rec.Side = true
		turn = Turn{Text: s.opts.SideText, InputTokens: 10, OutputTokens: 1}
		if schema := jsonSchema(m); schema != nil {
			b, _ := json.Marshal(exampleOf(schema))
			turn.Text = string(b)
		}
	case s.next < len(s.script):
		rec.Turn = s.next
		turn = s.script[s.next]
		s.next++
	default:
		rec.Exhausted = true
		turn = Turn{Text: s.opts.Final}
	}
	s.reqs = append(s.reqs, rec)
	s.mu.Unlock()
	if turn.InputTokens == 0 {
		turn.InputTokens = 1000
	}
	if turn.OutputTokens == 0 {
		turn.OutputTokens = 100
	}
	if s.opts.Log != nil {
		s.opts.Log("modelstub: #%d %s %s?%s api=%s turn=%d side=%v exhausted=%v body=%d bytes",
			seq, r.Method, r.URL.Path, r.URL.RawQuery, api, rec.Turn, rec.Side, rec.Exhausted, len(body))
	}

	id := fmt.Sprintf("%d", seq)
	if turn.Status != 0 && api != Other {
		writeError(w, api, turn)
		return
	}
	switch api {
	case Anthropic:
		writeAnthropic(w, m, turn, id)
	case Responses:
		writeResponses(w, m, turn, id)
	case Chat:
		writeChat(w, m, turn, id)
	case Gemini:
		writeGemini(w, r, m, turn, id)
	default:
		s.other(w, r, m)
	}
}

// other answers the endpoints that are not a model turn.
func (s *Server) other(w http.ResponseWriter, r *http.Request, m map[string]any) {
	p := r.URL.Path
	switch {
	case strings.HasSuffix(p, "/messages/count_tokens"):
		writeJSON(w, map[string]any{"input_tokens": 1000})
	case strings.HasSuffix(p, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 1000})
	case strings.HasSuffix(p, "/api/hello"):
		// Claude Code's connectivity check (HEAD), made unless
		// CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC is set.
		w.WriteHeader(http.StatusOK)
	case r.Method == http.MethodGet && strings.HasSuffix(p, "/models"):
		writeJSON(w, map[string]any{"object": "list", "data": []any{}, "models": []any{}, "has_more": false})
	default:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"error":{"type":"not_found_error","message":"modelstub: no such endpoint"}}`))
	}
}

// writeError answers with an HTTP error in the API's shape.
func writeError(w http.ResponseWriter, api API, t Turn) {
	var body any
	switch api {
	case Anthropic:
		typ := map[int]string{400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
			404: "not_found_error", 429: "rate_limit_error", 529: "overloaded_error"}[t.Status]
		if typ == "" {
			typ = "api_error"
		}
		body = map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": t.Text}}
	case Gemini:
		st := map[int]string{400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED",
			404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 503: "UNAVAILABLE"}[t.Status]
		if st == "" {
			st = "INTERNAL"
		}
		body = map[string]any{"error": map[string]any{"code": t.Status, "message": t.Text, "status": st}}
	default:
		typ := map[int]string{400: "invalid_request_error", 401: "invalid_request_error", 429: "rate_limit_exceeded"}[t.Status]
		if typ == "" {
			typ = "server_error"
		}
		code := map[int]any{401: "invalid_api_key"}[t.Status]
		body = map[string]any{"error": map[string]any{"message": t.Text, "type": typ, "param": nil, "code": code}}
	}
	b, _ := json.Marshal(body)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(t.Status)
	_, _ = w.Write(b)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// sse writes server-sent events, flushing after each.
type sse struct {
	w http.ResponseWriter
	f http.Flusher
}

func newSSE(w http.ResponseWriter) *sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	return &sse{w: w, f: f}
}

// event writes one event; name may be empty, data is marshalled unless it is a string.
func (e *sse) event(name string, data any) {
	var b []byte
	if s, ok := data.(string); ok {
		b = []byte(s)
	} else {
		b, _ = json.Marshal(data)
	}
	var buf bytes.Buffer
	if name != "" {
		fmt.Fprintf(&buf, "event: %s\n", name)
	}
	fmt.Fprintf(&buf, "data: %s\n\n", b)
	_, _ = e.w.Write(buf.Bytes())
	if e.f != nil {
		e.f.Flush()
	}
}

func callID(c ToolCall, prefix, id string, i int) string {
	if c.ID != "" {
		return c.ID
	}
	return fmt.Sprintf("%s%s_%d", prefix, id, i)
}

func args(c ToolCall) json.RawMessage {
	if len(c.Args) == 0 {
		return json.RawMessage(`{}`)
	}
	return c.Args
}

// compact returns a JSON text without insignificant spaces (the form the
// APIs send arguments in).
func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func truthy(m map[string]any, k string) bool {
	b, _ := m[k].(bool)
	return b
}

// jsonSchema returns the response schema a request asks its reply to follow, if any.
func jsonSchema(body map[string]any) map[string]any {
	if gc, ok := body["generationConfig"].(map[string]any); ok {
		for _, k := range []string{"responseJsonSchema", "responseSchema"} {
			if sc, ok := gc[k].(map[string]any); ok {
				return sc
			}
		}
	}
	if rf, ok := body["response_format"].(map[string]any); ok {
		if js, ok := rf["json_schema"].(map[string]any); ok {
			if sc, ok := js["schema"].(map[string]any); ok {
				return sc
			}
		}
	}
	return nil
}

// exampleOf makes a value that follows a JSON schema (OpenAPI-style upper
// case type names included).
func exampleOf(schema map[string]any) any {
	if enum, ok := schema["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	typ, _ := schema["type"].(string)
	if ts, ok := schema["type"].([]any); ok && len(ts) > 0 {
		typ, _ = ts[0].(string)
	}
	switch strings.ToLower(typ) {
	case "object", "":
		props, _ := schema["properties"].(map[string]any)
		out := map[string]any{}
		for k, v := range props {
			if sub, ok := v.(map[string]any); ok {
				out[k] = exampleOf(sub)
			}
		}
		return out
	case "array":
		return []any{}
	case "string":
		return "stub"
	case "integer", "number":
		return 1
	case "boolean":
		return false
	}
	return nil
}
