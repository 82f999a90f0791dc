package planparse

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
)

// doneJSON is the status value a ticked task-master task gets.
const doneJSON = `"done"`

// jsonStatusRe finds a "status" member with a string value in a task-master
// task's JSON text; an escaped quote (\") cannot start the key, so text
// inside a string value is not matched.
var jsonStatusRe = regexp.MustCompile(`("status"\s*:\s*)"(?:[^"\\]|\\.)*"`)

// memberSpan returns the byte range of the value of key in the JSON object
// data (offsets plus base), or false when the object has no such key.
func memberSpan(data []byte, base int, key string) (span, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return span{}, false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return span{}, false
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return span{}, false
		}
		if k, _ := tok.(string); k == key {
			end := int(dec.InputOffset())
			return span{base + end - len(raw), base + end}, true
		}
	}
	return span{}, false
}

// tickJSON sets the "status" of task-master task t to "done", replacing
// that one string value and no other byte. The file is parsed again to find
// t (by its label) because an earlier tick of a longer or shorter status
// moved every task after it.
func tickJSON(src []byte, t *Task) ([]byte, bool) {
	b := &builder{p: &Plan{Tasks: []*Task{}}, refs: map[*Task][]string{}, parent: map[*Task]*Task{}}
	b.parseTaskMasterJSON(src)
	i := slices.IndexFunc(b.p.Tasks, func(n *Task) bool { return n.Label == t.Label })
	if i < 0 {
		return src, false
	}
	s := b.p.Tasks[i].statusAt
	if s.end == 0 || string(src[s.start:s.end]) == doneJSON {
		return src, false
	}
	return slices.Concat(src[:s.start], []byte(doneJSON), src[s.end:]), true
}

// jsonHashText is a task-master task's JSON with every status value
// blanked (its subtasks' included): planx ticking a task, or task-master
// moving it to in-progress, is not a change of what the task asks.
func jsonHashText(body string) string {
	return jsonStatusRe.ReplaceAllString(body, `${1}""`)
}
