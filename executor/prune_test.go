package executor

import (
	"testing"
	"time"
)

func TestRunStarted(t *testing.T) {
	got, ok := runStarted("20261125-221926-1515fe")
	if want := time.Date(2026, 11, 25, 22, 19, 26, 0, time.Local); !ok || !got.Equal(want) {
		t.Errorf("runStarted = %v, %v; want %v", got, ok, want)
	}
	for _, id := range []string{"", "x", "2026-11-25", "notarun-123456-xx"} {
		if _, ok := runStarted(id); ok {
			t.Errorf("runStarted(%q) ok", id)
		}
	}
}
