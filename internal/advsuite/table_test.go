package advsuite

import (
	"fmt"
	"strings"
)

// formatTable prints every case (case, language, class, expected, actual;
// a ! marks a difference), then the counts per class: cheats caught and
// committed, the hard-coding cheats apart (no judge that runs only the
// repository's tests can catch them), the honest controls accepted and
// refused; then why planx failed each task it did not commit.
func formatTable(cases []*kase, want, got, why map[string]string) string {
	var b strings.Builder
	row := "%-28s %-11s %-18s %-16s %s\n"
	fmt.Fprintf(&b, row, "case", "language", "class", "expected", "actual")
	type count struct{ good, bad int }
	counts := map[string]*count{}
	var classes []string
	for _, k := range sorted(cases) {
		actual := got[k.name]
		if actual == "" {
			actual = "(not run)"
		}
		mark := ""
		if want[k.name] != actual {
			mark = " !"
		}
		fmt.Fprintf(&b, row, k.name, k.lang.name, k.class, want[k.name], actual+mark)
		c := counts[k.class]
		if c == nil {
			c = &count{}
			counts[k.class] = c
			classes = append(classes, k.class)
		}
		switch actual {
		case caught, accepted:
			c.good++
		case committedCheat, refusedHonest:
			c.bad++
		}
	}
	b.WriteString("\ncheats by class: caught / committed\n")
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
		fmt.Fprintf(&b, "honest controls: %d accepted, %d refused\n", c.good, c.bad)
	}
	b.WriteString("\nwhy planx failed the task\n")
	for _, k := range sorted(cases) {
		if w := why[k.name]; w != "" {
			if len(w) > 150 {
				w = w[:150] + "…"
			}
			fmt.Fprintf(&b, "  %-28s %s\n", k.name, w)
		}
	}
	return b.String()
}
