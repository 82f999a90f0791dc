package modelstub

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Anthropic Messages API: POST /v1/messages.
func writeAnthropic(w http.ResponseWriter, req map[string]any, t Turn, id string) {
	model := str(req, "model")
	msgID := "msg_stub_" + id
	stop := "end_turn"
	if len(t.Calls) > 0 {
		stop = "tool_use"
	}
	usage := map[string]any{"input_tokens": t.InputTokens, "output_tokens": t.OutputTokens,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}

	var blocks []map[string]any
	if t.Text != "" {
		blocks = append(blocks, map[string]any{"type": "text", "text": t.Text})
	}
	for i, c := range t.Calls {
		blocks = append(blocks, map[string]any{"type": "tool_use", "id": callID(c, "toolu_stub_", id, i),
			"name": c.Name, "input": args(c)})
	}
	if !truthy(req, "stream") {
		if blocks == nil {
			blocks = []map[string]any{}
		}
		writeJSON(w, map[string]any{"id": msgID, "type": "message", "role": "assistant", "model": model,
			"content": blocks, "stop_reason": stop, "stop_sequence": nil, "usage": usage})
		return
	}
	e := newSSE(w)
	e.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": msgID, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": t.InputTokens, "output_tokens": 1,
			"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}})
	for i, b := range blocks {
		switch b["type"] {
		case "text":
			e.event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "text", "text": ""}})
			e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "text_delta", "text": b["text"]}})
		case "tool_use":
			e.event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}})
			e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": compact(b["input"].(json.RawMessage))}})
		}
		e.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	e.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": usage})
	e.event("message_stop", map[string]any{"type": "message_stop"})
}

// OpenAI Responses API: POST /v1/responses.
func writeResponses(w http.ResponseWriter, req map[string]any, t Turn, id string) {
	respID := "resp_stub_" + id
	model := str(req, "model")
	var items []map[string]any
	if t.Text != "" {
		items = append(items, map[string]any{"type": "message", "id": "msg_stub_" + id, "status": "completed",
			"role": "assistant", "content": []any{map[string]any{"type": "output_text", "text": t.Text, "annotations": []any{}}}})
	}
	for i, c := range t.Calls {
		cid := callID(c, "call_stub_", id, i)
		switch c.Kind {
		case "custom":
			items = append(items, map[string]any{"type": "custom_tool_call", "id": "ctc_stub_" + id,
				"status": "completed", "call_id": cid, "name": c.Name, "input": c.Input})
		default:
			items = append(items, map[string]any{"type": "function_call", "id": "fc_stub_" + id,
				"status": "completed", "call_id": cid, "name": c.Name, "arguments": compact(args(c))})
		}
	}
	usage := map[string]any{"input_tokens": t.InputTokens, "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": t.OutputTokens, "output_tokens_details": map[string]any{"reasoning_tokens": 0},
		"total_tokens": t.InputTokens + t.OutputTokens}
	resp := func(status string, output []map[string]any, u any) map[string]any {
		if output == nil {
			output = []map[string]any{}
		}
		return map[string]any{"id": respID, "object": "response", "created_at": 0, "status": status,
			"model": model, "output": output, "usage": u}
	}
	if st, ok := req["stream"].(bool); ok && !st {
		writeJSON(w, resp("completed", items, usage))
		return
	}
	e := newSSE(w)
	e.event("response.created", map[string]any{"type": "response.created", "response": resp("in_progress", nil, nil)})
	for i, it := range items {
		added := map[string]any{}
		for k, v := range it {
			added[k] = v
		}
		if it["type"] == "message" {
			added["content"] = []any{}
			added["status"] = "in_progress"
		}
		e.event("response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": i, "item": added})
		if it["type"] == "message" {
			e.event("response.output_text.delta", map[string]any{"type": "response.output_text.delta",
				"item_id": it["id"], "output_index": i, "content_index": 0, "delta": t.Text})
		}
		e.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": i, "item": it})
	}
	e.event("response.completed", map[string]any{"type": "response.completed", "response": resp("completed", items, usage)})
}

// OpenAI Chat Completions API: POST /v1/chat/completions.
func writeChat(w http.ResponseWriter, req map[string]any, t Turn, id string) {
	model := str(req, "model")
	chatID := "chatcmpl-stub-" + id
	finish := "stop"
	if len(t.Calls) > 0 {
		finish = "tool_calls"
	}
	usage := map[string]any{"prompt_tokens": t.InputTokens, "completion_tokens": t.OutputTokens,
		"total_tokens": t.InputTokens + t.OutputTokens}
	var calls []map[string]any
	for i, c := range t.Calls {
		calls = append(calls, map[string]any{"index": i, "id": callID(c, "call_stub_", id, i), "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": compact(args(c))}})
	}
	if !truthy(req, "stream") {
		msg := map[string]any{"role": "assistant", "content": nil}
		if t.Text != "" {
			msg["content"] = t.Text
		}
		if calls != nil {
			for _, c := range calls {
				delete(c, "index")
			}
			msg["tool_calls"] = calls
		}
		writeJSON(w, map[string]any{"id": chatID, "object": "chat.completion", "created": 0, "model": model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	e := newSSE(w)
	chunk := func(delta map[string]any, fin any) map[string]any {
		return map[string]any{"id": chatID, "object": "chat.completion.chunk", "created": 0, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": fin}}}
	}
	e.event("", chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	if t.Text != "" {
		e.event("", chunk(map[string]any{"content": t.Text}, nil))
	}
	for _, c := range calls {
		e.event("", chunk(map[string]any{"tool_calls": []any{c}}, nil))
	}
	e.event("", chunk(map[string]any{}, finish))
	e.event("", map[string]any{"id": chatID, "object": "chat.completion.chunk", "created": 0, "model": model,
		"choices": []any{}, "usage": usage})
	e.event("", "[DONE]")
}

// Gemini API: POST /v1beta/models/<m>:streamGenerateContent?alt=sse and :generateContent.
func writeGemini(w http.ResponseWriter, r *http.Request, req map[string]any, t Turn, id string) {
	var parts []any
	if t.Text != "" {
		parts = append(parts, map[string]any{"text": t.Text})
	}
	for i, c := range t.Calls {
		parts = append(parts, map[string]any{"functionCall": map[string]any{
			"id": callID(c, "call_stub_", id, i), "name": c.Name, "args": args(c)}})
	}
	if parts == nil {
		parts = []any{map[string]any{"text": ""}}
	}
	model := r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
	if i := strings.IndexByte(model, ':'); i >= 0 {
		model = model[:i]
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": parts},
			"finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": t.InputTokens, "candidatesTokenCount": t.OutputTokens,
			"totalTokenCount": t.InputTokens + t.OutputTokens},
		"modelVersion": model, "responseId": "stub-" + id,
	}
	if !strings.HasSuffix(r.URL.Path, ":streamGenerateContent") {
		writeJSON(w, resp)
		return
	}
	if r.URL.Query().Get("alt") != "sse" {
		// Without alt=sse the stream is one JSON array.
		writeJSON(w, []any{resp})
		return
	}
	e := newSSE(w)
	e.event("", resp)
}
