package planparse

import (
	"fmt"
	"regexp"
	"strings"
)

// badIDRe finds what was meant as a task ID and is not one: a heading or a
// checkbox item that begins with T and then a digit, a space and digits,
// or a sign (T01a, T 003, T$(rm -rf x), T1234567). The heading's optional
// checkbox and Task prefix are nativeHeadRe's.
var badIDRe = regexp.MustCompile(`^(?:\[[ xX\-]\]\s+)?(?:(?:Task|Subtask)\s+)?(?:\*\*)?(T\s+\d+|T[^\p{L}\s]\S*)`)

// badID is the warning about blk when it looks like a task and its ID is
// malformed: planx does not run it, and dropping it without a word would
// leave a person believing it ran. A warning, not an error: a checklist
// item may well begin with such a word and not be a task. A token without
// a digit or a shell sign ("T-shirt") is a word, not an ID. (A function,
// not the builder's method: the builder has all the methods it may.)
func badID(blk *block) (Diagnostic, bool) {
	m := badIDRe.FindStringSubmatch(blk.text)
	if m == nil {
		return Diagnostic{}, false
	}
	id := strings.TrimRight(m[1], ":.,;*")
	if !strings.ContainsAny(id, "0123456789$`(){}|&;<>") {
		return Diagnostic{}, false
	}
	return Diagnostic{Severity: SeverityWarning, Line: blk.line,
		Message: fmt.Sprintf("%q is not a task ID (T and 1 to 6 digits): this line is not a task, and planx does not run it", id),
		Hint:    "write its ID as T001, T002, ..., or begin the line otherwise if it is not a task"}, true
}
