package risk

import (
	"strings"
	"testing"
)

// The rule table in docs/risk.md is executable: each example must get its
// row's level and rule, in a repository where (as the page says) data/
// and local.env are ignored and src/ is tracked.
func TestDocExamples(t *testing.T) {
	docRepo := Repo{Ignored: func(p string) bool { return p == "data" || strings.HasPrefix(p, "data/") || p == "local.env" },
		Tracked: func(p string) bool { return p == "src" || strings.HasPrefix(p, "src/") }}
	rows := 0
	for _, line := range strings.Split(readDoc(t), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := splitRow(line)
		if len(cells) != 4 {
			t.Fatalf("rule row with %d cells: %s", len(cells), line)
		}
		rule := strings.Trim(cells[0], "`")
		want, err := ParseLevel(cells[1])
		if err != nil {
			t.Fatalf("%s: %v", rule, err)
		}
		example := strings.Trim(cells[3], "`")
		got, fs := docRepo.Classify(example)
		if got != want || len(fs) == 0 || fs[0].Rule != rule {
			t.Errorf("docs/risk.md example for %s: Classify(%q) = %s\n%s", rule, example, got, dump(fs))
		}
		rows++
	}
	if rows < 25 {
		t.Errorf("only %d rule rows found in docs/risk.md", rows)
	}
}

// splitRow splits a markdown table row at unescaped pipes.
func splitRow(line string) []string {
	line = strings.Trim(strings.TrimSpace(line), "|")
	var cells []string
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			b.WriteByte('|')
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(line[i])
		}
	}
	return append(cells, strings.TrimSpace(b.String()))
}
