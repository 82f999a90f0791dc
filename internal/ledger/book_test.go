package ledger

import (
	"strings"
	"testing"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/ledger/records"
	"github.com/planx-dev/planx/planparse"
)

// A gate taken from a record passes, is marked cached, ran the task's
// command and says when it passed.
func TestCachedResult(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	g := gates.Gate{Name: "test", Command: "go test {{blast_radius}}"}
	task := &planparse.Task{ID: "T1", BlastRadius: "./calc/..."}
	got := CachedResult(g, task, records.GateRecord{Gate: "test", Passed: true, DurationMS: 1500, At: at})
	if !got.Passed || !got.Cached || got.Duration != 1500*time.Millisecond || got.Command != g.Expand(task.BlastRadius) {
		t.Errorf("cached result = %+v", got)
	}
	if !strings.Contains(got.Tail, "2026-01-02T03:04:05Z") {
		t.Errorf("tail %q does not say when it passed", got.Tail)
	}
}

// A logged gate's definition is the run's gate of that name, or the
// logged command alone (an acceptance check).
func TestGateDef(t *testing.T) {
	b := Book{Defs: []gates.Gate{{Name: "test", Command: "go test ./...", Timeout: time.Minute}}}
	if d := b.gateDef(execlog.Gate{Name: "test", Command: "other"}); d.Command != "go test ./..." || d.Timeout != time.Minute {
		t.Errorf("configured gate: %+v", d)
	}
	if d := b.gateDef(execlog.Gate{Name: "accept-1", Command: "./check.sh"}); d.Name != "accept-1" || d.Command != "./check.sh" {
		t.Errorf("acceptance check: %+v", d)
	}
}
