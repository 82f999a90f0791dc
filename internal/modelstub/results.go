package modelstub

import (
	"encoding/json"
	"strings"
)

// ToolResult is a tool's result as a CLI sent it back to the model.
type ToolResult struct {
	CallID  string
	Name    string // when the wire format carries it (Gemini)
	Output  string
	IsError bool // when the wire format carries it (Anthropic)
}

// ToolResults returns the tool results carried in a request's history, in
// order, for any of the four APIs. A conversation request carries the whole
// history, so the last one holds every result so far.
func (r Request) ToolResults() []ToolResult {
	m := r.JSON()
	if m == nil {
		return nil
	}
	var out []ToolResult
	switch r.API {
	case Anthropic:
		for _, msg := range list(m["messages"]) {
			for _, c := range list(obj(msg)["content"]) {
				b := obj(c)
				if b["type"] == "tool_result" {
					isErr, _ := b["is_error"].(bool)
					out = append(out, ToolResult{CallID: str(b, "tool_use_id"), Output: text(b["content"]), IsError: isErr})
				}
			}
		}
	case Responses:
		for _, it := range list(m["input"]) {
			b := obj(it)
			if t := str(b, "type"); strings.HasSuffix(t, "call_output") {
				out = append(out, ToolResult{CallID: str(b, "call_id"), Output: text(b["output"])})
			}
		}
	case Chat:
		for _, msg := range list(m["messages"]) {
			b := obj(msg)
			if b["role"] == "tool" {
				out = append(out, ToolResult{CallID: str(b, "tool_call_id"), Output: text(b["content"])})
			}
		}
	case Gemini:
		for _, c := range list(m["contents"]) {
			for _, p := range list(obj(c)["parts"]) {
				fr := obj(obj(p)["functionResponse"])
				if fr == nil {
					continue
				}
				resp := obj(fr["response"])
				o, ok := resp["output"].(string)
				if !ok {
					b, _ := json.Marshal(fr["response"])
					o = string(b)
				}
				out = append(out, ToolResult{CallID: str(fr, "id"), Name: str(fr, "name"), Output: o})
			}
		}
	}
	return out
}

// ToolResult returns the result sent back for the call with the given id,
// searching the recorded requests from the last one.
func (s *Server) ToolResult(callID string) (ToolResult, bool) {
	reqs := s.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		for _, tr := range reqs[i].ToolResults() {
			if tr.CallID == callID {
				return tr, true
			}
		}
	}
	return ToolResult{}, false
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// text flattens a content value: a string, or a list of parts with text
// fields (Anthropic text blocks, Responses input_text, Chat content parts).
func text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		var parts []string
		for _, p := range x {
			if s, ok := obj(p)["text"].(string); ok {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "\n")
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}
