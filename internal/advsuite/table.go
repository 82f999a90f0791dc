package advsuite

import (
	"fmt"
	"regexp"
	"strings"
)

// formatTable prints g's table: every case of g (case, language, class,
// expected, the outcome alone, the outcome in a wave and what became of
// the wave's other tasks; a ! marks an outcome that differs from the
// expected one), then the counts per class alone: cheats caught and
// committed, the hard-coding cheats apart (no judge that runs only the
// repository's tests can catch them), the honest controls accepted and
// refused; then issue 35's classes, the wave mode's count and its known
// differences; then why planx failed each task it did not commit.
func formatTable(g group, cases []*kase, want map[string]string, alone, inWave map[string]caseRun) string {
	var b strings.Builder
	fmt.Fprintf(&b, "the adversarial suite's group %s (%s)\n", g.name, strings.Join(g.langs, ", "))
	row := "%-28s %-11s %-18s %-16s %-18s %-18s %s\n"
	fmt.Fprintf(&b, row, "case", "language", "class", "expected", "alone", "wave", "T002 T003")
	type count struct{ good, bad int }
	counts := map[string]*count{}
	var classes []string
	for _, k := range sorted(cases) {
		a, w := outcomeCell(want[k.name], alone, k.name), outcomeCell(want[k.name], inWave, k.name)
		fmt.Fprintf(&b, row, k.name, k.lang.name, k.class, want[k.name], a, w, inWave[k.name].neighbours)
		c := counts[k.class]
		if c == nil {
			c = &count{}
			counts[k.class] = c
			classes = append(classes, k.class)
		}
		switch alone[k.name].outcome {
		case caught, accepted:
			c.good++
		case committedCheat, refusedHonest:
			c.bad++
		}
	}
	b.WriteString("\ncheats by class, alone: caught / committed\n")
	var total count
	for _, class := range classes {
		if c := counts[class]; class != hardcodeClass && class != honestClass {
			fmt.Fprintf(&b, "  %-18s %2d / %2d\n", class, c.good, c.bad)
			total.good += c.good
			total.bad += c.bad
		}
	}
	fmt.Fprintf(&b, "  %-18s %2d / %2d\n", "all but hardcode", total.good, total.bad)
	if c := counts[hardcodeClass]; c != nil {
		fmt.Fprintf(&b, "  %-18s %2d / %2d  (apart: no judge that only runs the repository's tests can catch these)\n", hardcodeClass, c.good, c.bad)
	}
	if c := counts[honestClass]; c != nil {
		fmt.Fprintf(&b, "honest controls alone: %d accepted, %d refused\n", c.good, c.bad)
	}
	issueTable(&b, sorted(cases), alone)
	waveSummary(&b, sorted(cases), want, inWave)
	b.WriteString("\nwhy planx failed the task (alone; in a wave too when it says otherwise there)\n")
	for _, k := range sorted(cases) {
		a, w := alone[k.name].why, inWave[k.name].why
		if a != "" {
			fmt.Fprintf(&b, "  %-28s %s\n", k.name, clip(a))
		}
		if w != "" && waveWhy(w) != a {
			fmt.Fprintf(&b, "  %-28s %s\n", k.name+" (wave)", clip(w))
		}
	}
	return b.String()
}

// outcomeCell is the table's cell of the case name's outcome in runs: the
// outcome, marked when it differs from want (! or, for a known difference
// in a wave, "known"), or "(not run)".
func outcomeCell(want string, runs map[string]caseRun, name string) string {
	c, ok := runs[name]
	switch {
	case !ok || c.outcome == "":
		return "(not run)"
	case c.outcome == want:
		return c.outcome
	case sameVerdict(name, want, c):
		return c.outcome + " known"
	}
	return c.outcome + " !"
}

// waveSummary counts the wave mode's cases and names its differences.
func waveSummary(b *strings.Builder, cases []*kase, want map[string]string, inWave map[string]caseRun) {
	same, heldN := 0, 0
	var differ []string
	for _, k := range cases {
		c, ok := inWave[k.name]
		switch {
		case !ok:
			continue
		case c.outcome == want[k.name]:
			same++
		default:
			differ = append(differ, k.name)
		}
		if c.neighbours == held {
			heldN++
		}
	}
	if len(inWave) == 0 {
		return
	}
	fmt.Fprintf(b, "\nin a wave (T002 T003 T001 with --jobs 3): %d cases, %d with the outcome alone", len(inWave), same)
	if len(differ) > 0 {
		fmt.Fprintf(b, ", %d not: %s", len(differ), strings.Join(differ, " "))
	}
	b.WriteString("\n")
	for _, name := range differ {
		if outcome, why := waveKnown(name); outcome != "" {
			fmt.Fprintf(b, "  known: %s %s in a wave: %s\n", name, outcome, why)
		}
	}
	if heldN > 0 {
		fmt.Fprintf(b, "  T002 and T003 held in %d waves\n", heldN)
	}
}

// clip shortens a refusal for the table.
func clip(w string) string {
	if len(w) > 150 {
		return w[:150] + "…"
	}
	return w
}

// keptRe is what a wave adds to a failed task's refusal: where planx
// kept its slot.
var keptRe = regexp.MustCompile(`; its work is kept in the work tree \S+`)

// waveWhy is a refusal in a wave as it would read alone.
func waveWhy(w string) string {
	return canaryRe.ReplaceAllString(keptRe.ReplaceAllString(w, ""), "Planx…")
}

// canaryRe is the name of a run's canaries or twins, drawn afresh for
// each run.
var canaryRe = regexp.MustCompile(`Planx(?:canary[0-9a-f]+p[0-9]+|twin[0-9a-f]+_[0-9]+_)`)
