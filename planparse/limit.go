package planparse

import "fmt"

// MaxItems bounds how many list items and headings a markdown plan may
// have. goldmark builds a node per item and planx a task per checkbox, so
// a plan of hundreds of thousands of items costs seconds and a gigabyte
// however flat it is; the largest real plan in the corpus has about 400
// items and headings, under 200 tasks.
const MaxItems = 20000

// countItems returns the 1-based line on which src's list items and ATX
// headings (code included: the count must not need the parse it guards)
// exceed MaxItems, or 0 when they stay within it. It reads src once.
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

// isItemLine reports whether ln opens a list item (after any indentation
// and ">" quote markers) or is an ATX heading.
func isItemLine(ln []byte) bool {
	j := 0
	for j < len(ln) && (ln[j] == ' ' || ln[j] == '\t' || ln[j] == '>') {
		j++
	}
	if j == len(ln) {
		return false
	}
	if ln[j] == '#' {
		return true
	}
	return ln[j] != '>' && markerLen(ln[j:]) > 0
}

// reportTooMany records the refusal of a plan with more than MaxItems
// list items and headings, at the line where the count crossed the limit.
func (b *builder) reportTooMany(line int) {
	b.diag(SeverityError, line, fmt.Sprintf("plan has more than %d list items and headings (limit reached on this line): planx does not parse it", MaxItems),
		"split the plan into several plans of at most a few thousand tasks each, or move long appendices and logs out of the plan file")
}
