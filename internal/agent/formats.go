package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/internal/record"
)

// The readers of each transcript format: each takes one decoded event,
// records its cost and tool calls, and returns the lines to show for it.
// The field names are those of the versions in .ci/agents/package.json
// (internal/modelstub/README.md shows each); a field a later version
// renames is read as absent, never as a failure.

// claude reads claude's and qwen's stream-json events.
func (m *Meter) claude(ev map[string]any) []string {
	switch str(ev, "type") {
	case "assistant":
		msg := obj(ev["message"])
		if u := obj(msg["usage"]); u != nil {
			m.part(str(msg, "id"), anthropicCost(u))
		}
		var out []string
		for _, b := range list(msg["content"]) {
			blk := obj(b)
			switch str(blk, "type") {
			case "text":
				m.answer = str(blk, "text")
				out = append(out, m.answer)
			case "tool_use":
				what := inputWhat(obj(blk["input"]))
				m.call(str(blk, "id"), str(blk, "name"), what)
				out = append(out, fmt.Sprintf("> %s %s", str(blk, "name"), what))
			}
		}
		return out
	case "user":
		var out []string
		for _, b := range list(obj(ev["message"])["content"]) {
			blk := obj(b)
			if str(blk, "type") != "tool_result" {
				continue
			}
			failed, _ := blk["is_error"].(bool)
			text := contentText(blk["content"])
			m.result(str(blk, "tool_use_id"), "", "", failed, text)
			if failed {
				out = append(out, "  failed: "+short(text, 160))
			}
		}
		return out
	case "result":
		c := anthropicCost(obj(ev["usage"]))
		if usd, ok := ev["total_cost_usd"].(float64); ok {
			c.USD, c.HasUSD = usd, true
		}
		m.final = &c
		out := []string{"usage: " + c.String()}
		if isErr, _ := ev["is_error"].(bool); isErr {
			// How it ended when it did not end well (a rejected key, the
			// turn limit): the one line a person needs from the tail.
			kind := str(ev, "subtype") + " "
			if kind == "success " {
				kind = "" // claude's subtype when the API, not the turn, failed
			}
			out = append([]string{"error: " + short(kind+cmpOr(str(ev, "result"), errorText(ev)), 300)}, out...)
		}
		return out
	case "error":
		return []string{"error: " + short(errorText(ev), 300)}
	}
	return nil
}

// errorText is what an error event says, wherever the CLI put it.
func errorText(ev map[string]any) string {
	for _, v := range []any{ev["message"], obj(ev["error"])["message"], obj(obj(ev["error"])["data"])["message"], ev["error"]} {
		if s, ok := v.(string); ok && s != "" {
			return s
		}
	}
	if ev["error"] == nil {
		return ""
	}
	b, _ := json.Marshal(ev["error"])
	return string(b)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// anthropicCost reads an Anthropic usage object: the prompt tokens are
// the uncached ones plus those written to and read from the cache.
func anthropicCost(u map[string]any) record.Cost {
	return record.Cost{In: num(u, "input_tokens") + num(u, "cache_creation_input_tokens") + num(u, "cache_read_input_tokens"),
		Out: num(u, "output_tokens")}
}

// codex reads `codex exec --json` events.
func (m *Meter) codex(ev map[string]any) []string {
	switch str(ev, "type") {
	case "item.completed":
		it := obj(ev["item"])
		switch kind := str(it, "type"); kind {
		case "agent_message":
			m.answer = str(it, "text")
			return []string{m.answer}
		case "reasoning", "todo_list", "error":
			return nil
		default:
			what := str(it, "command")
			if what == "" {
				what = changedPaths(it)
			}
			code, hasCode := it["exit_code"].(float64)
			failed := str(it, "status") == "failed" || (hasCode && code != 0)
			m.result(str(it, "id"), kind, what, failed, str(it, "aggregated_output"))
			line := fmt.Sprintf("> %s %s", kind, short(what, 80))
			if failed {
				line += "\n  failed: " + short(str(it, "aggregated_output"), 160)
			}
			return []string{line}
		}
	case "turn.completed":
		u := obj(ev["usage"])
		m.part(fmt.Sprintf("turn-%d", len(m.order)), record.Cost{In: num(u, "input_tokens"), Out: num(u, "output_tokens")})
		c := m.costLocked()
		return []string{"usage: " + c.String()}
	case "error", "turn.failed":
		return []string{"error: " + short(errorText(ev), 300)}
	}
	return nil
}

// gemini reads gemini's stream-json events.
func (m *Meter) gemini(ev map[string]any) []string {
	switch str(ev, "type") {
	case "message":
		if str(ev, "role") == "assistant" {
			if delta, _ := ev["delta"].(bool); delta {
				m.answer += str(ev, "content")
			} else {
				m.answer = str(ev, "content")
			}
			return []string{str(ev, "content")}
		}
	case "tool_use":
		what := inputWhat(obj(ev["parameters"]))
		m.call(str(ev, "tool_id"), str(ev, "tool_name"), what)
		return []string{fmt.Sprintf("> %s %s", str(ev, "tool_name"), what)}
	case "tool_result":
		failed := str(ev, "status") == "error"
		text := str(ev, "output")
		if e := obj(ev["error"]); e != nil {
			text = str(e, "message")
		}
		m.result(str(ev, "tool_id"), "", "", failed, text)
		if failed {
			return []string{"  failed: " + short(text, 160)}
		}
	case "result":
		s := obj(ev["stats"])
		c := record.Cost{In: num(s, "input_tokens"), Out: num(s, "output_tokens")}
		m.final = &c
		out := []string{"usage: " + c.String()}
		if str(ev, "status") == "error" {
			out = append([]string{"error: " + short(errorText(ev), 300)}, out...)
		}
		return out
	case "error":
		return []string{"error: " + short(errorText(ev), 300)}
	}
	return nil
}

// opencode reads `opencode run --format json` events.
func (m *Meter) opencode(ev map[string]any) []string {
	p := obj(ev["part"])
	switch str(ev, "type") {
	case "text":
		m.answer = str(p, "text")
		return []string{m.answer}
	case "tool_use":
		st := obj(p["state"])
		what := inputWhat(obj(st["input"]))
		exit, hasExit := obj(st["metadata"])["exit"].(float64)
		failed := str(st, "status") == "error" || (hasExit && exit != 0)
		text := str(st, "output")
		if e := str(st, "error"); e != "" {
			text = e
		}
		m.result(str(p, "callID"), str(p, "tool"), what, failed, text)
		line := fmt.Sprintf("> %s %s", str(p, "tool"), what)
		if failed {
			line += "\n  failed: " + short(text, 160)
		}
		return []string{line}
	case "step_finish":
		t := obj(p["tokens"])
		cache := obj(t["cache"])
		c := record.Cost{In: num(t, "input") + num(cache, "read") + num(cache, "write"), Out: num(t, "output") + num(t, "reasoning")}
		// opencode reports 0 for a model it has no prices for: a price
		// is known only when it is not zero.
		if usd, ok := p["cost"].(float64); ok && usd > 0 {
			c.USD, c.HasUSD = usd, true
		}
		m.part(str(p, "id"), c)
	case "error":
		return []string{"error: " + short(errorText(ev), 300)}
	}
	return nil
}

// inputWhat is what a tool call's arguments say it does: its command, or
// the file it reads or writes.
func inputWhat(in map[string]any) string {
	for _, k := range []string{"command", "cmd", "file_path", "filePath", "path", "pattern", "url"} {
		switch v := in[k].(type) {
		case string:
			return v
		case []any:
			b, _ := json.Marshal(v)
			return string(b)
		}
	}
	return ""
}

// changedPaths names the files of a codex file_change item.
func changedPaths(it map[string]any) string {
	var ps []string
	for _, c := range list(it["changes"]) {
		ps = append(ps, str(obj(c), "path"))
	}
	return strings.Join(ps, " ")
}

// contentText is a tool result's content: a string, or text blocks.
func contentText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	var parts []string
	for _, b := range list(v) {
		parts = append(parts, str(obj(b), "text"))
	}
	return strings.Join(parts, "\n")
}

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }
func list(v any) []any         { l, _ := v.([]any); return l }
func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}
func num(m map[string]any, k string) int64 {
	f, _ := m[k].(float64)
	return int64(f)
}

// short cuts s to n runes, on one line.
func short(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
