package testreport

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the parsers' output")

// render prints a report for a golden file: one line per test, then the
// notes.
func render(r Report, err error) string {
	var b strings.Builder
	fmt.Fprintf(&b, "kind: %s\nfailed: %v\n", r.Kind, r.Failed)
	fmt.Fprintf(&b, "tests: %d pass, %d fail, %d skip\n", r.Count(Pass), r.Count(Fail), r.Count(Skip))
	for _, t := range r.Tests {
		fmt.Fprintf(&b, "%-4s %q group=%q\n", t.Outcome, t.ID, t.Group)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
	}
	return b.String()
}

// kindOf tells a fixture's format by its name.
func kindOf(name string) string {
	switch {
	case strings.HasPrefix(name, "go-"):
		return KindGoJSON
	case strings.HasPrefix(name, "junit-"):
		return KindJUnit
	case strings.HasPrefix(name, "unittest-"):
		return KindUnittest
	case strings.HasPrefix(name, "tap-"):
		return KindTAP
	}
	return ""
}

// TestGolden parses every fixture under testdata and compares the result
// with its .golden file. The fixtures are real tools' output (see
// testdata/make-fixtures.sh) except the hand-written Surefire file.
func TestGolden(t *testing.T) {
	inputs, err := filepath.Glob("testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, in := range inputs {
		name := filepath.Base(in)
		kind := kindOf(name)
		if kind == "" || strings.HasSuffix(name, ".golden") {
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(in)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got := render(Parse(kind, f))
			golden := in + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("%s: parse differs from %s:\n--- got\n%s--- want\n%s", in, golden, got, want)
			}
		})
	}
	if n < 20 {
		t.Fatalf("only %d fixtures found under testdata", n)
	}
}
