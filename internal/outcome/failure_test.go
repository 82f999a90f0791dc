package outcome

import (
	"fmt"
	"testing"
)

func TestForUserAndAs(t *testing.T) {
	f := &Failure{What: "gate test failed", Hint: "mark it Checkpoint: yes"}
	if got := f.ForUser(); got != "gate test failed (mark it Checkpoint: yes)" {
		t.Errorf("ForUser = %q", got)
	}
	if got := (&Failure{What: "x"}).ForUser(); got != "x" {
		t.Errorf("ForUser without hint = %q", got)
	}
	wrapped := fmt.Errorf("task T001: %w", f)
	if As(wrapped) != f {
		t.Errorf("As did not find the failure through wrapping")
	}
	if As(fmt.Errorf("plain")) != nil {
		t.Errorf("As found a failure in a plain error")
	}
}
