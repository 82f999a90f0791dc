package runplan

import (
	"fmt"
	"io"
	"strings"

	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/planfile"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// Selection is what a run does with each task of the plan.
type Selection struct {
	Run      []*planparse.Task // to execute, in order
	Done     int               // leaf tasks git (or a hand tick) says are done
	ByHand   []*planparse.Task // ticked in the plan without a task commit
	Optional []*planparse.Task // optional tasks left out (no --optional)
	Outside  []*planparse.Task // left out by --only, --from, --to or --phase
	Drift    []planfile.Drift  // done tasks whose text changed since their commit
}

// DriftError stops a run on the done tasks whose text changed (s.Drift)
// in the plan at planRel, given on the command line as plan: the two
// commands it offers are runnable as printed.
func (s *Selection) DriftError(planRel, plan string) error {
	var b strings.Builder
	for _, d := range s.Drift {
		b.WriteString("\n  " + textsafe.Block(d.String()))
	}
	return fmt.Errorf("%w: %s: %d done task(s) changed since their commit:%s\n"+
		"if only the words changed, `planx run --accept-text %s` accepts the new text without running the task(s) again; "+
		"`planx run --accept-drift %s` runs them again; or restore the text (--all runs every task again)",
		record.ErrDrift, planRel, len(s.Drift), b.String(), shellWord(plan), shellWord(plan))
}

// report tells what the run leaves out and why.
func (s *Selection) Report(out *progress.Progress) {
	if len(s.ByHand) <= 3 {
		for _, t := range s.ByHand {
			out.Println("planx: %s %s is ticked by hand (no task commit of it): skipped", textsafe.Line(t.DisplayID()), textsafe.Line(textsafe.Shorten(t.Title, 60)))
		}
	} else {
		var ids []string
		for _, t := range s.ByHand[:min(5, len(s.ByHand))] {
			ids = append(ids, textsafe.Line(t.DisplayID()))
		}
		if len(s.ByHand) > 5 {
			ids = append(ids, fmt.Sprintf("and %d more", len(s.ByHand)-5))
		}
		out.Println("planx: %d task(s) are ticked by hand (no task commit of them): skipped: %s", len(s.ByHand), strings.Join(ids, ", "))
	}
	if n := len(s.Optional); n > 0 {
		var ids []string
		for _, t := range s.Optional {
			ids = append(ids, textsafe.Line(t.DisplayID()))
		}
		out.Println("planx: %d optional task(s) left out (run them with --optional): %s", n, strings.Join(ids, ", "))
	}
	if n := len(s.Outside); n > 0 {
		var ids []string
		for _, t := range s.Outside[:min(8, n)] {
			ids = append(ids, textsafe.Line(t.DisplayID()))
		}
		if n > 8 {
			ids = append(ids, fmt.Sprintf("and %d more", n-8))
		}
		out.Println("planx: %d task(s) not selected (--only, --from, --to, --phase): %s", n, strings.Join(ids, ", "))
	}
}

// Nothing says why a run has no task to execute.
func (sel *Selection) Nothing(w io.Writer, planRel string) {
	switch {
	case len(sel.Outside) > 0:
		fmt.Fprintf(w, "planx: nothing to run in %s: the tasks selected are done; %d task(s) left out by --only, --from, --to or --phase\n", planRel, len(sel.Outside))
	case sel.Done > 0:
		fmt.Fprintf(w, "planx: all %d tasks done in %s; nothing to run (--all runs them again)\n", sel.Done, planRel)
	case len(sel.Optional) > 0:
		fmt.Fprintf(w, "planx: nothing to run in %s: its %d task(s) are optional (--optional runs them)\n", planRel, len(sel.Optional))
	default:
		fmt.Fprintf(w, "planx: %s has no task to run\n", planRel)
	}
}

// shellWord quotes s for a shell when it holds anything but plain path
// characters, so that a printed command can be pasted.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/+@:,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
