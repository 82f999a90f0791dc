package planparse

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// tmTask is one task-master task or subtask.
type tmTask struct {
	ID           json.RawMessage   `json:"id"`
	Title        string            `json:"title"`
	Description  string            `json:"description"`
	Details      string            `json:"details"`
	TestStrategy string            `json:"testStrategy"`
	Status       string            `json:"status"`
	Priority     string            `json:"priority"`
	Dependencies []json.RawMessage `json:"dependencies"`
}

var tmSubRe = regexp.MustCompile(`^## (\d+)\.\s+(.*?)\s*(?:\[([\w-]+)\])?\s*$`)

// span is a JSON value's byte range in the source.
type span struct{ start, end int }

func lineStarts(src []byte) []int {
	lines := []int{0}
	for i, c := range src {
		if c == '\n' && i+1 < len(src) {
			lines = append(lines, i+1)
		}
	}
	return lines
}

func lineAt(lines []int, off int) int {
	return sort.Search(len(lines), func(i int) bool { return lines[i] > off })
}

// parseTaskMasterJSON reads task-master's tasks.json, tagged
// ({"master": {"tasks": [...]}}) or legacy ({"tasks": [...]}). Subtasks
// become tasks of their own whose Parent is the enclosing task.
func (b *builder) parseTaskMasterJSON(src []byte) {
	b.numericRefs = true
	lines := lineStarts(src)
	var top map[string]json.RawMessage
	if err := json.Unmarshal(src, &top); err != nil {
		line := 1
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line = lineAt(lines, int(se.Offset))
		}
		b.diag(SeverityError, line, "task-master JSON: "+err.Error(), "fix the JSON syntax")
		return
	}
	path := []string{"tasks"}
	if _, ok := top["tasks"]; !ok {
		tags := make([]string, 0, len(top))
		for k := range top {
			tags = append(tags, k)
		}
		sort.Strings(tags)
		if _, ok := top["master"]; ok {
			tags = append([]string{"master"}, tags...)
		}
		path = nil
		for _, k := range tags {
			var inner map[string]json.RawMessage
			if json.Unmarshal(top[k], &inner) == nil && inner["tasks"] != nil {
				path = []string{k, "tasks"}
				b.p.Title = k
				break
			}
		}
		if path == nil {
			return
		}
	}
	elems, err := arrayAt(src, 0, path)
	if err != nil {
		b.diag(SeverityError, 1, "task-master JSON: "+err.Error(), "tasks must be a list of task objects")
		return
	}
	for _, e := range elems {
		b.tmTask(src, lines, e, "", nil)
	}
}

func (b *builder) tmTask(src []byte, lines []int, e span, parentLabel string, parent *Task) {
	raw := src[e.start:e.end]
	var tt tmTask
	if err := json.Unmarshal(raw, &tt); err != nil {
		b.diag(SeverityError, lineAt(lines, e.start), "task-master task: "+err.Error(), "each task must be an object with id, title, status")
		return
	}
	id := strings.Trim(string(tt.ID), `"`)
	lbl := id
	if parentLabel != "" {
		lbl = parentLabel + "." + id
	}
	t := b.newTask(lbl, tt.Title, lineAt(lines, e.start), e.start, e.end)
	t.Body = string(raw)
	t.fromJSON = true
	t.Status = tmStatus(tt.Status)
	if sp, ok := memberSpan(raw, e.start, "status"); ok && src[sp.start] == '"' {
		t.statusAt = sp
	}
	if tt.Priority != "" {
		t.Labels = append(t.Labels, "priority:"+tt.Priority)
	}
	if s := strings.TrimSpace(tt.TestStrategy); s != "" {
		t.Acceptance = append(t.Acceptance, s)
	}
	if parent != nil {
		b.parent[t] = parent
	}
	for _, d := range tt.Dependencies {
		s := strings.Trim(string(d), `"`)
		if s == "" {
			continue
		}
		if parentLabel != "" && !strings.Contains(s, ".") && d[0] != '"' {
			s = parentLabel + "." + s // a subtask's integer dependency names a sibling
		}
		b.refs[t] = append(b.refs[t], s)
	}
	subs, err := arrayAt(raw, e.start, []string{"subtasks"})
	if err != nil {
		return
	}
	for _, s := range subs {
		b.tmTask(src, lines, s, lbl, t)
	}
}

func tmStatus(s string) Status {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "done", "completed", "complete":
		return StatusDone
	case "in-progress", "in_progress", "review":
		return StatusInProgress
	case "deferred", "cancelled", "canceled":
		return StatusOptional
	}
	return StatusOpen
}

// arrayAt walks the object keys in path and returns the byte spans of the
// array elements found there; offsets are relative to data plus base.
func arrayAt(data []byte, base int, path []string) ([]span, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	for _, key := range path {
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			return nil, fmt.Errorf("expected an object holding %q", key)
		}
		for {
			if !dec.More() {
				return nil, fmt.Errorf("no %q key", key)
			}
			tok, err := dec.Token()
			if err != nil {
				return nil, err
			}
			if k, _ := tok.(string); k == key {
				break
			}
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, err
			}
		}
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, errors.New("expected a list")
	}
	var out []span
	for dec.More() {
		start := skipSep(data, int(dec.InputOffset()))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return out, err
		}
		out = append(out, span{base + start, base + int(dec.InputOffset())})
	}
	return out, nil
}

func skipSep(data []byte, off int) int {
	for off < len(data) && strings.IndexByte(" \t\r\n,", data[off]) >= 0 {
		off++
	}
	return off
}

// parseTaskMasterText reads task-master's per-task task_NNN.txt: "# Key:
// value" headers, then "# Subtasks:" with "## N. Title [status]" entries.
func (b *builder) parseTaskMasterText(src []byte) {
	b.numericRefs = true
	p := &tmText{b: b, src: src, lines: lineStarts(src)}
	for i := range p.lines {
		l := string(lineBytes(src, p.lines, i))
		switch {
		case strings.HasPrefix(l, "# ") && strings.Contains(l, ":"):
			p.header(i, l)
		case strings.HasPrefix(l, "## ") && p.main != nil:
			p.subtask(i, l)
		case strings.HasPrefix(l, "### Dependencies:") && p.cur != nil && p.cur != p.main:
			p.dependencies(strings.TrimSpace(strings.TrimPrefix(l, "### Dependencies:")))
		case p.key == "test strategy" && p.cur == p.main && p.main != nil && strings.TrimSpace(l) != "":
			p.main.Acceptance = append(p.main.Acceptance, strings.TrimSpace(l))
		}
	}
	p.close(p.cur, len(p.lines))
	for _, t := range b.p.Tasks {
		t.Body = string(src[t.Start:t.End])
	}
}

// tmText is the state of reading a task-master task file: the main task,
// the (sub)task being read and the last "# key:" header.
type tmText struct {
	b           *builder
	src         []byte
	lines       []int
	main, cur   *Task
	key, mainID string
}

// close ends t's text before line endLine.
func (p *tmText) close(t *Task, endLine int) {
	if t == nil {
		return
	}
	t.End = len(p.src)
	if endLine < len(p.lines) {
		t.End = p.lines[endLine]
	}
}

// header reads a "# Key: value" line of the main task.
func (p *tmText) header(i int, l string) {
	k, v, _ := strings.Cut(strings.TrimPrefix(l, "# "), ":")
	p.key, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
	if p.key == "task id" {
		p.close(p.cur, i)
		p.mainID = v
		p.main = p.b.newTask(v, "", i+1, p.lines[i], len(p.src))
		p.cur = p.main
		return
	}
	if p.main == nil {
		return
	}
	switch p.key {
	case "title":
		p.main.Title = v
	case "status":
		p.main.Status = tmStatus(v)
	case "dependencies":
		if !noneRe.MatchString(v) && v != "" {
			p.b.diag(SeverityInfo, i+1, fmt.Sprintf("task %s depends on task(s) %s kept in other task-master files; planx does not follow them", p.mainID, v),
				"run tasks.json to get cross-task ordering")
		}
	case "test strategy":
		if v != "" {
			p.main.Acceptance = append(p.main.Acceptance, v)
		}
	case "subtasks":
		p.close(p.main, i)
		p.cur = nil
	}
}

// subtask starts the subtask a "## N. Title [status]" line names.
func (p *tmText) subtask(i int, l string) {
	p.close(p.cur, i)
	m := tmSubRe.FindStringSubmatch(l)
	if m == nil {
		p.cur = nil
		return
	}
	p.cur = p.b.newTask(p.mainID+"."+m[1], m[2], i+1, p.lines[i], len(p.src))
	p.b.parent[p.cur] = p.main
	if m[3] != "" {
		p.cur.Status = tmStatus(m[3])
	}
}

// dependencies reads a subtask's "### Dependencies:" list: a bare number
// is a sibling subtask.
func (p *tmText) dependencies(v string) {
	if noneRe.MatchString(v) {
		return
	}
	for _, r := range splitList(v) {
		if r = strings.TrimSpace(r); r != "" {
			if _, err := strconv.Atoi(r); err == nil {
				r = p.mainID + "." + r
			}
			p.b.refs[p.cur] = append(p.b.refs[p.cur], r)
		}
	}
}
