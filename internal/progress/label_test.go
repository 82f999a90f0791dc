package progress

import (
	"bytes"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
)

// A task the plan calls by an ID of its own is shown by it, beside planx's:
// the progress lines, the step summary and the JSON events.
func TestProgressNamesTheLabel(t *testing.T) {
	task := &planparse.Task{ID: "T002", Label: "1.1", Title: "Create the layout"}
	var out bytes.Buffer
	p := New(Output{Out: &out})
	p.TaskStart(1, 2, task)
	p.TaskDone(task, gitops.SHA("0123456789abcdef0123456789abcdef01234567"))
	if !strings.Contains(out.String(), "[1/2] 1.1 (T002) Create the layout\n") {
		t.Errorf("progress:\n%s", out.String())
	}
	if len(p.rows) != 1 || !strings.HasPrefix(p.rows[0], "| 1.1 (T002) | done |") {
		t.Errorf("summary rows %q", p.rows)
	}
	var js bytes.Buffer
	p = New(Output{Out: &js, JSON: true})
	p.TaskStart(1, 2, task)
	if !strings.Contains(js.String(), `"task":"T002","label":"1.1"`) {
		t.Errorf("event: %s", js.String())
	}
}
