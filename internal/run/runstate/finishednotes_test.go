package runstate

import (
	"slices"
	"testing"

	"github.com/planx-dev/planx/planparse"
)

// A commit's Planx-Finished values: the task's own first, then those of
// the skips it records; a task or skip with no note has none.
func TestFinishedNotes(t *testing.T) {
	st := &State{Finished: map[planparse.TaskID]string{"T1": "by hand", "T3": "skipped"}}
	skipped := []planparse.TaskID{"T2", "T3"}
	if got, want := st.FinishedNotes(&planparse.Task{ID: "T1"}, skipped), []string{"T1 by hand", "T3 skipped"}; !slices.Equal(got, want) {
		t.Errorf("T1's commit: %q, want %q", got, want)
	}
	if got, want := st.FinishedNotes(nil, skipped), []string{"T3 skipped"}; !slices.Equal(got, want) {
		t.Errorf("the skips' commit: %q, want %q", got, want)
	}
	if got := st.FinishedNotes(&planparse.Task{ID: "T4"}, nil); len(got) != 0 {
		t.Errorf("T4's commit: %q, want none", got)
	}
	if len(skipped) != 2 || skipped[0] != "T2" {
		t.Errorf("the skips were changed: %v", skipped)
	}
}
