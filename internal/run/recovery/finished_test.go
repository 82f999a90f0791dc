package recovery

import (
	"testing"

	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/planparse"
)

// A Planx-Finished note names the hand-made files of the commit, once,
// whichever attempt of the task made it.
func TestNoteHand(t *testing.T) {
	task := &planparse.Task{ID: "T001"}
	st := &runstate.State{Finished: map[planparse.TaskID]string{"T001": "by hand after gate check failed (exit 1)"}}
	NoteHand(st, task, []string{"a.txt", "b.txt"}, "")
	NoteHand(st, task, []string{"a.txt"}, "") // a second attempt's split replaces the first's
	if got, want := st.Finished["T001"], "by hand after gate check failed (exit 1); hand-made: a.txt"; got != want {
		t.Errorf("note %q, want %q", got, want)
	}
	NoteHand(st, task, nil, "")
	if got, want := st.Finished["T001"], "by hand after gate check failed (exit 1)"; got != want {
		t.Errorf("no hand-made file: %q, want %q", got, want)
	}
	fresh := &runstate.State{}
	NoteHand(fresh, &planparse.Task{ID: "T002"}, []string{"c.txt"}, "")
	if got, want := fresh.Finished["T002"], "after a stop, with a person's edits; hand-made: c.txt"; got != want {
		t.Errorf("a task run after the stop: %q, want %q", got, want)
	}
	NoteHand(&runstate.State{}, task, nil, "") // no note, no file: nothing to say, no map needed
	beside := &runstate.State{}
	NoteHand(beside, &planparse.Task{ID: "T003"}, []string{"notes.txt"}, "while wave 1 ran")
	if got, want := beside.Finished["T003"], "with a person's edits made while wave 1 ran; hand-made: notes.txt"; got != want {
		t.Errorf("a task after a wave beside which a person edited: %q, want %q", got, want)
	}
}
