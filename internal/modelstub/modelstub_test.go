package modelstub_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/modelstub"
)

type event struct {
	name string
	data map[string]any
	raw  string
}

// post sends body to the stub and returns the response.
func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	return resp
}

// readSSE decodes a server-sent event stream.
func readSSE(t *testing.T, resp *http.Response) []event {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	var evs []event
	var cur event
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.raw != "" {
				if cur.raw != "[DONE]" {
					if err := json.Unmarshal([]byte(cur.raw), &cur.data); err != nil {
						t.Fatalf("event %q: %v", cur.raw, err)
					}
				}
				evs = append(evs, cur)
			}
			cur = event{}
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.raw = strings.TrimPrefix(line, "data: ")
		default:
			t.Fatalf("unexpected line %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return evs
}

func readJSON(t *testing.T, resp *http.Response) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// get follows a path of map keys and slice indexes.
func get(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

var script = []modelstub.Turn{
	{Text: "Let me look.", Calls: []modelstub.ToolCall{{ID: "c1", Name: "shell", Args: json.RawMessage(`{"command": "go test ./..."}`)}}},
	{Text: "All done.", InputTokens: 7, OutputTokens: 3},
}

func TestAnthropicStream(t *testing.T) {
	s := modelstub.New(script, modelstub.Options{})
	defer s.Close()
	body := `{"model":"claude-x","stream":true,"tools":[{"name":"shell"}],"messages":[{"role":"user","content":"hi"}]}`
	evs := readSSE(t, post(t, s.URL+"/v1/messages?beta=true", body))
	var names []string
	for _, e := range evs {
		names = append(names, e.name)
		if e.data["type"] != e.name {
			t.Errorf("event %s has type %v", e.name, e.data["type"])
		}
	}
	want := []string{"message_start",
		"content_block_start", "content_block_delta", "content_block_stop",
		"content_block_start", "content_block_delta", "content_block_stop",
		"message_delta", "message_stop"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("events %v, want %v", names, want)
	}
	if get(evs[0].data, "message", "model") != "claude-x" || get(evs[0].data, "message", "usage", "input_tokens") != 1000.0 {
		t.Errorf("message_start: %s", evs[0].raw)
	}
	if get(evs[2].data, "delta", "type") != "text_delta" || get(evs[2].data, "delta", "text") != "Let me look." {
		t.Errorf("text delta: %s", evs[2].raw)
	}
	if get(evs[4].data, "content_block", "type") != "tool_use" || get(evs[4].data, "content_block", "id") != "c1" ||
		get(evs[4].data, "content_block", "name") != "shell" || get(evs[4].data, "index") != 1.0 {
		t.Errorf("tool_use start: %s", evs[4].raw)
	}
	if get(evs[5].data, "delta", "type") != "input_json_delta" || get(evs[5].data, "delta", "partial_json") != `{"command":"go test ./..."}` {
		t.Errorf("input_json_delta: %s", evs[5].raw)
	}
	if get(evs[7].data, "delta", "stop_reason") != "tool_use" || get(evs[7].data, "usage", "output_tokens") != 100.0 {
		t.Errorf("message_delta: %s", evs[7].raw)
	}

	// Second turn, not streamed: a whole message.
	m := readJSON(t, post(t, s.URL+"/v1/messages", `{"model":"claude-x","tools":[{"name":"shell"}],"messages":[]}`))
	if m["type"] != "message" || m["stop_reason"] != "end_turn" || get(m, "content", 0, "text") != "All done." ||
		get(m, "usage", "input_tokens") != 7.0 || get(m, "usage", "output_tokens") != 3.0 {
		t.Errorf("message: %v", m)
	}
	if !s.Exhausted() {
		t.Error("script not exhausted")
	}
	// Exhausted: a plain final turn.
	m = readJSON(t, post(t, s.URL+"/v1/messages", `{"model":"claude-x","tools":[{"name":"shell"}],"messages":[]}`))
	if get(m, "content", 0, "text") != "Done." || m["stop_reason"] != "end_turn" {
		t.Errorf("after the script: %v", m)
	}
	reqs := s.Requests()
	if len(reqs) != 3 || reqs[0].Turn != 0 || reqs[1].Turn != 1 || !reqs[2].Exhausted || reqs[0].API != modelstub.Anthropic {
		t.Errorf("requests: %+v", reqs)
	}
}

func TestAnthropicSideRequests(t *testing.T) {
	s := modelstub.New(script, modelstub.Options{SideText: "A title"})
	defer s.Close()
	// No tools: a title or topic request; answered without using the script.
	m := readJSON(t, post(t, s.URL+"/v1/messages", `{"model":"claude-haiku","messages":[{"role":"user","content":"title?"}]}`))
	if get(m, "content", 0, "text") != "A title" {
		t.Errorf("side reply: %v", m)
	}
	m = readJSON(t, post(t, s.URL+"/v1/messages/count_tokens", `{"model":"claude-x","messages":[]}`))
	if m["input_tokens"] == nil {
		t.Errorf("count_tokens: %v", m)
	}
	resp, err := http.Get(s.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("GET /v1/models: %d", resp.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodHead, s.URL+"/api/hello", nil)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("HEAD /api/hello: %d", resp.StatusCode)
	}
	if s.Remaining() != len(script) {
		t.Errorf("side requests used the script: %d left", s.Remaining())
	}
	for _, r := range s.Requests() {
		if !r.Side || r.Turn != -1 {
			t.Errorf("not recorded as side: %+v", r)
		}
	}
}

func TestResponsesStream(t *testing.T) {
	turns := []modelstub.Turn{{Text: "Patching.", Calls: []modelstub.ToolCall{
		{ID: "p1", Name: "apply_patch", Kind: "custom", Input: "*** Begin Patch\n*** End Patch\n"},
		{ID: "e1", Name: "exec_command", Args: json.RawMessage(`{"cmd": "ls"}`)},
	}}}
	s := modelstub.New(turns, modelstub.Options{})
	defer s.Close()
	evs := readSSE(t, post(t, s.URL+"/v1/responses", `{"model":"gpt-x","stream":true,"input":[]}`))
	var names []string
	for _, e := range evs {
		names = append(names, e.name)
		if e.data["type"] != e.name {
			t.Errorf("event %s has type %v", e.name, e.data["type"])
		}
	}
	want := []string{"response.created",
		"response.output_item.added", "response.output_text.delta", "response.output_item.done",
		"response.output_item.added", "response.output_item.done",
		"response.output_item.added", "response.output_item.done",
		"response.completed"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("events %v, want %v", names, want)
	}
	msg := get(evs[3].data, "item")
	if get(msg, "type") != "message" || get(msg, "role") != "assistant" || get(msg, "content", 0, "type") != "output_text" ||
		get(msg, "content", 0, "text") != "Patching." {
		t.Errorf("message item: %s", evs[3].raw)
	}
	custom := get(evs[5].data, "item")
	if get(custom, "type") != "custom_tool_call" || get(custom, "call_id") != "p1" || get(custom, "name") != "apply_patch" ||
		get(custom, "input") != "*** Begin Patch\n*** End Patch\n" {
		t.Errorf("custom tool call: %s", evs[5].raw)
	}
	fn := get(evs[7].data, "item")
	if get(fn, "type") != "function_call" || get(fn, "call_id") != "e1" || get(fn, "name") != "exec_command" ||
		get(fn, "arguments") != `{"cmd":"ls"}` || get(evs[7].data, "output_index") != 2.0 {
		t.Errorf("function call: %s", evs[7].raw)
	}
	done := evs[8].data
	if get(done, "response", "status") != "completed" || get(done, "response", "usage", "input_tokens") != 1000.0 ||
		get(done, "response", "usage", "output_tokens") != 100.0 || get(done, "response", "usage", "total_tokens") != 1100.0 {
		t.Errorf("completed: %s", evs[8].raw)
	}
}

func TestChatStream(t *testing.T) {
	s := modelstub.New(script, modelstub.Options{})
	defer s.Close()
	evs := readSSE(t, post(t, s.URL+"/v1/chat/completions",
		`{"model":"m","stream":true,"tools":[{"type":"function","function":{"name":"shell"}}],"messages":[]}`))
	if n := len(evs); n < 4 || evs[n-1].raw != "[DONE]" {
		t.Fatalf("stream does not end with [DONE]: %+v", evs)
	}
	var text, args, finish string
	var calls int
	var usage any
	for _, e := range evs[:len(evs)-1] {
		if e.name != "" || e.data["object"] != "chat.completion.chunk" {
			t.Errorf("chunk: %s", e.raw)
		}
		if u := e.data["usage"]; u != nil {
			usage = u
		}
		ch, _ := get(e.data, "choices", 0).(map[string]any)
		if ch == nil {
			continue
		}
		if s, ok := get(ch, "delta", "content").(string); ok {
			text += s
		}
		if tc := get(ch, "delta", "tool_calls", 0); tc != nil {
			calls++
			if get(tc, "id") != "c1" || get(tc, "type") != "function" || get(tc, "function", "name") != "shell" || get(tc, "index") != 0.0 {
				t.Errorf("tool call chunk: %s", e.raw)
			}
			args += get(tc, "function", "arguments").(string)
		}
		if f, ok := ch["finish_reason"].(string); ok {
			finish = f
		}
	}
	if text != "Let me look." || calls != 1 || args != `{"command":"go test ./..."}` || finish != "tool_calls" {
		t.Errorf("text %q calls %d args %q finish %q", text, calls, args, finish)
	}
	if get(usage, "prompt_tokens") != 1000.0 || get(usage, "completion_tokens") != 100.0 {
		t.Errorf("usage %v", usage)
	}

	// Not streamed.
	m := readJSON(t, post(t, s.URL+"/v1/chat/completions", `{"model":"m","tools":[{"type":"function"}],"messages":[]}`))
	if get(m, "choices", 0, "message", "content") != "All done." || get(m, "choices", 0, "finish_reason") != "stop" ||
		get(m, "usage", "prompt_tokens") != 7.0 {
		t.Errorf("completion: %v", m)
	}
}

func TestGemini(t *testing.T) {
	s := modelstub.New(script, modelstub.Options{})
	defer s.Close()
	evs := readSSE(t, post(t, s.URL+"/v1beta/models/gemini-x:streamGenerateContent?alt=sse", `{"contents":[]}`))
	if len(evs) != 1 {
		t.Fatalf("events: %+v", evs)
	}
	c := evs[0].data
	if get(c, "candidates", 0, "content", "role") != "model" || get(c, "candidates", 0, "content", "parts", 0, "text") != "Let me look." {
		t.Errorf("text part: %s", evs[0].raw)
	}
	fc := get(c, "candidates", 0, "content", "parts", 1, "functionCall")
	if get(fc, "name") != "shell" || get(fc, "id") != "c1" || get(fc, "args", "command") != "go test ./..." {
		t.Errorf("functionCall: %s", evs[0].raw)
	}
	if get(c, "usageMetadata", "promptTokenCount") != 1000.0 || get(c, "usageMetadata", "candidatesTokenCount") != 100.0 ||
		get(c, "candidates", 0, "finishReason") != "STOP" || get(c, "modelVersion") != "gemini-x" {
		t.Errorf("usage or finish: %s", evs[0].raw)
	}

	// A non-streaming generateContent asking for JSON is a side request
	// (gemini cli's router) and gets a value that follows the schema.
	m := readJSON(t, post(t, s.URL+"/v1beta/models/gemini-lite:generateContent", `{"contents":[],"generationConfig":{
		"responseMimeType":"application/json","responseJsonSchema":{"type":"OBJECT","properties":{
		"reasoning":{"type":"STRING"},"score":{"type":"INTEGER"},"next_speaker":{"type":"string","enum":["user","model"]}}}}}`))
	var v map[string]any
	if err := json.Unmarshal([]byte(get(m, "candidates", 0, "content", "parts", 0, "text").(string)), &v); err != nil {
		t.Fatalf("side reply is not JSON: %v (%v)", m, err)
	}
	if v["reasoning"] != "stub" || v["score"] != 1.0 || v["next_speaker"] != "user" {
		t.Errorf("side JSON %v", v)
	}
	if s.Remaining() != 1 {
		t.Errorf("remaining %d, want 1", s.Remaining())
	}
}

func TestToolResults(t *testing.T) {
	s := modelstub.New(nil, modelstub.Options{})
	defer s.Close()
	bodies := map[string]string{
		"/v1/messages": `{"tools":[{}],"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"a1","content":[{"type":"text","text":"ok  pkg"}],"is_error":true}]}]}`,
		"/v1/responses": `{"input":[{"type":"function_call_output","call_id":"r1","output":"ok  pkg"},
			{"type":"custom_tool_call_output","call_id":"r2","output":"patched"}]}`,
		"/v1/chat/completions":                   `{"tools":[{}],"messages":[{"role":"tool","tool_call_id":"c1","content":"ok  pkg"}]}`,
		"/v1beta/models/g:streamGenerateContent": `{"contents":[{"role":"user","parts":[{"functionResponse":{"id":"g1","name":"run","response":{"output":"ok  pkg"}}}]}]}`,
	}
	for path, body := range bodies {
		resp := post(t, s.URL+path, body)
		_, _ = io.Copy(io.Discard, resp.Body)
	}
	for id, want := range map[string]modelstub.ToolResult{
		"a1": {CallID: "a1", Output: "ok  pkg", IsError: true},
		"r1": {CallID: "r1", Output: "ok  pkg"},
		"r2": {CallID: "r2", Output: "patched"},
		"c1": {CallID: "c1", Output: "ok  pkg"},
		"g1": {CallID: "g1", Name: "run", Output: "ok  pkg"},
	} {
		got, ok := s.ToolResult(id)
		if !ok || got != want {
			t.Errorf("ToolResult(%s) = %+v, %v; want %+v", id, got, ok, want)
		}
	}
	for _, r := range s.Requests() {
		if !bytes.HasPrefix(r.Body, []byte("{")) {
			t.Errorf("body not recorded: %+v", r)
		}
	}
}

func TestErrorTurn(t *testing.T) {
	for _, c := range []struct {
		path string
		want string
	}{
		{"/v1/messages", `{"error":{"message":"bad key","type":"authentication_error"},"type":"error"}`},
		{"/v1/responses", `{"error":{"code":"invalid_api_key","message":"bad key","param":null,"type":"invalid_request_error"}}`},
		{"/v1/chat/completions", `{"error":{"code":"invalid_api_key","message":"bad key","param":null,"type":"invalid_request_error"}}`},
		{"/v1beta/models/g:streamGenerateContent", `{"error":{"code":401,"message":"bad key","status":"UNAUTHENTICATED"}}`},
	} {
		s := modelstub.New([]modelstub.Turn{{Status: 401, Text: "bad key"}}, modelstub.Options{})
		resp, err := http.Post(s.URL+c.path, "application/json", strings.NewReader(`{"stream":true,"tools":[{}]}`))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		s.Close()
		if resp.StatusCode != 401 || string(b) != c.want {
			t.Errorf("%s: %d %s, want 401 %s", c.path, resp.StatusCode, b, c.want)
		}
	}
}
