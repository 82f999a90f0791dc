package planparse

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// genDeep writes about size bytes of checklist items nested by line(i).
func genDeep(size int, line func(i int) string) []byte {
	var sb strings.Builder
	for i := 0; sb.Len() < size; i++ {
		sb.WriteString(line(i))
	}
	return []byte(sb.String())
}

// deepShapes are nesting shapes that made goldmark's cost grow with the
// depth: indentation, markers on one line, quotes, and the deepest nesting
// planx still reads.
var deepShapes = map[string]func(i int) string{
	"indent":  func(i int) string { return strings.Repeat("  ", i%3000) + fmt.Sprintf("- [ ] item %d\n", i) },
	"markers": func(i int) string { return strings.Repeat("- ", i%2000) + fmt.Sprintf("[ ] item %d\n", i) },
	"quotes":  func(i int) string { return strings.Repeat(">", i%3000) + fmt.Sprintf(" - item %d\n", i) },
	"mixed":   func(i int) string { return strings.Repeat("> - ", i%1000) + fmt.Sprintf("[ ] item %d\n", i) },
	// flat and depth49 have a checklist item per line: at 9 MB they are
	// refused by the MaxItems pre-scan, see BenchmarkParseMaxItems.
	"flat":    func(i int) string { return fmt.Sprintf("- [ ] item %d\n", i) },
	"depth49": func(i int) string { return strings.Repeat("  ", i%49) + fmt.Sprintf("- [ ] item %d\n", i) },
}

// BenchmarkParseDeep parses 9 MB plans of deeply nested lists (just under
// MaxSize); PLANX_DEEP_SHAPE picks one shape. Measured in the issue-15 note:
//
//	go test -run '^$' -bench ParseDeep -benchtime 1x -benchmem ./planparse
func BenchmarkParseDeep(b *testing.B) {
	for name, shape := range deepShapes {
		if s := os.Getenv("PLANX_DEEP_SHAPE"); s != "" && s != name {
			continue
		}
		src := genDeep(9<<20, shape)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse("deep.md", src, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseMaxItems parses the largest checklists planx accepts:
// MaxItems items, flat and nested to depth 49 (past about 25 levels the
// items are read as text, so that one has fewer tasks).
func BenchmarkParseMaxItems(b *testing.B) {
	for _, name := range []string{"flat", "depth49"} {
		var sb strings.Builder
		for i := 0; i < MaxItems; i++ {
			sb.WriteString(deepShapes[name](i))
		}
		src := []byte(sb.String())
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				p, err := Parse("max.md", src, Options{})
				if err != nil {
					b.Fatal(err)
				}
				if err := p.Err(); err != nil || len(p.Tasks) == 0 {
					b.Fatalf("%d tasks, err %v", len(p.Tasks), err)
				}
				b.ReportMetric(float64(len(p.Tasks)), "tasks")
			}
		})
	}
}
