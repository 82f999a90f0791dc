package runstate

import "strings"

// IndexMarks are what an index holds beyond the tree write-tree records:
// entries flagged assume-unchanged or skip-worktree, and intent-to-add
// entries (git add -N), which write-tree leaves out. A run keeps those
// it started with (State.OrigMarks) for abort to put back.
type IndexMarks struct {
	AssumeUnchanged []string `json:"assume_unchanged,omitempty"`
	SkipWorktree    []string `json:"skip_worktree,omitempty"`
	IntentToAdd     []string `json:"intent_to_add,omitempty"`
}

// Empty reports whether there is no mark.
func (m IndexMarks) Empty() bool {
	return len(m.AssumeUnchanged)+len(m.SkipWorktree)+len(m.IntentToAdd) == 0
}

// MarksOf reads gitops.Index.HiddenEntries' list and the intent-to-add
// paths into marks.
func MarksOf(hidden, intentToAdd []string) IndexMarks {
	m := IndexMarks{IntentToAdd: intentToAdd}
	for _, h := range hidden {
		if p, ok := strings.CutSuffix(h, " (assume-unchanged)"); ok {
			m.AssumeUnchanged = append(m.AssumeUnchanged, p)
		} else if p, ok := strings.CutSuffix(h, " (skip-worktree)"); ok {
			m.SkipWorktree = append(m.SkipWorktree, p)
		}
	}
	return m
}
