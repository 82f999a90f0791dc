package planparse

import (
	"bytes"
	"fmt"
)

// MaxItems bounds how many items a plan may have: list items, headings,
// table rows and GSD <task> blocks in markdown and text plans, task ids in
// task-master JSON. goldmark builds a node per item and planx a task per
// checkbox, row or block, so a plan of hundreds of thousands of them costs
// seconds and a gigabyte however flat it is; the largest real plan in the
// corpus has under 500 such lines and under 200 tasks.
const MaxItems = 20000

// countItems returns the 1-based line on which src's items (code
// included: the count must not need the parse it guards) exceed MaxItems,
// or 0 when they stay within it. It reads src once.
func countItems(src []byte) int {
	n, line := 0, 1
	for i := 0; i < len(src); {
		end := i
		for end < len(src) && src[end] != '\n' {
			end++
		}
		if isItemLine(src[i:end]) {
			if n++; n > MaxItems {
				return line
			}
		}
		i = end + 1
		line++
	}
	return 0
}

// isItemLine reports whether ln opens a list item or a GSD <task> block
// (after any indentation and ">" quote markers), is an ATX heading, or may
// be a table row: any line with a "|", since GFM rows need no leading one.
func isItemLine(ln []byte) bool {
	if bytes.IndexByte(ln, '|') >= 0 {
		return true
	}
	j := 0
	for j < len(ln) && (ln[j] == ' ' || ln[j] == '\t' || ln[j] == '>') {
		j++
	}
	if j == len(ln) {
		return false
	}
	if ln[j] == '#' || bytes.HasPrefix(ln[j:], []byte("<task")) {
		return true
	}
	return markerLen(ln[j:]) > 0
}

// countJSONItems is countItems for task-master JSON: it counts "id" keys,
// one per task and subtask.
func countJSONItems(src []byte) int {
	key := []byte(`"id"`)
	off := 0
	for n := 0; ; n++ {
		k := bytes.Index(src[off:], key)
		if k < 0 {
			return 0
		}
		if n == MaxItems {
			return 1 + bytes.Count(src[:off+k], []byte("\n"))
		}
		off += k + len(key)
	}
}

// reportTooMany records the refusal of a plan with more than MaxItems
// items, at the line where the count crossed the limit.
func (b *builder) reportTooMany(line int) {
	b.diag(SeverityError, line, fmt.Sprintf("plan has more than %d items (list items, headings, table rows, tasks; limit reached on this line): planx does not parse it", MaxItems),
		"split the plan into several plans of at most a few thousand tasks each, or move long appendices and logs out of the plan file")
}
