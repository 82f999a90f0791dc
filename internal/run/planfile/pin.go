package planfile

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strings"

	"github.com/planx-dev/planx/internal/linediff"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// Edited reports whether the plan on disk differs from pinned, the text the
// run executes, other than by ticks, and how (pinReport). A text found to
// differ only by ticks is remembered, so the file is parsed again only when
// it changes again.
func (pf *File) Edited(pinned *planparse.Plan) (report string, changed bool, err error) {
	cur, err := os.ReadFile(pf.Abs)
	if err != nil {
		return "", false, fmt.Errorf("read the plan %s: %w", pf.Rel, err)
	}
	if bytes.Equal(cur, pinned.Source) || bytes.Equal(cur, pf.pinChecked) {
		return "", false, nil
	}
	// The ticks planx wrote change no task's hash; anything else does, or
	// changes the front matter.
	if report, changed = pf.pinReport(pinned, cur); !changed {
		pf.pinChecked = cur
	}
	return report, changed, nil
}

// pinReport says, task by task, how the plan text cur differs from pinned.
func (pf *File) pinReport(pinned *planparse.Plan, cur []byte) (string, bool) {
	p, err := planparse.Parse(pf.Abs, cur, planparse.Options{Format: pf.Format})
	if err != nil {
		return "  the plan no longer parses: " + err.Error(), true
	}
	var b strings.Builder
	for _, t := range pinned.Order() {
		switch n := p.Task(t.ID); {
		case n == nil:
			fmt.Fprintf(&b, "  %s removed\n", t.ID)
		case n.Hash() != t.Hash():
			fmt.Fprintf(&b, "  %s changed (plan line %d):\n%s\n", t.ID, n.Line, textsafe.Indent(strings.TrimRight(linediff.Lines(t.Body, n.Body), "\n"), "    "))
		}
	}
	for _, n := range p.Order() {
		if pinned.Task(n.ID) == nil {
			fmt.Fprintf(&b, "  %s added (plan line %d)\n", n.ID, n.Line)
		}
	}
	if !reflect.DeepEqual(p.Gates, pinned.Gates) || p.Executor != pinned.Executor {
		b.WriteString("  the front matter changed (gates or executor)\n")
	}
	return strings.TrimRight(b.String(), "\n"), b.Len() > 0
}
