package testreport

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Outcome is what a test came to. A runner's "error" (an exception outside
// an assertion, a broken fixture) is a Fail: for grading, code that errors
// is as broken as code that fails.
type Outcome string

const (
	Pass Outcome = "pass"
	Fail Outcome = "fail"
	Skip Outcome = "skip"
)

// rank orders outcomes for merging repeats of one test (go test -count=2,
// a JUnit file listing a case twice): one failing run is a failure.
func (o Outcome) rank() int {
	switch o {
	case Fail:
		return 2
	case Pass:
		return 1
	}
	return 0
}

// Test is one test's result.
type Test struct {
	// ID is stable across runs of the same code: for Go "pkg/path
	// TestName/sub", for JUnit "classname.name", for unittest
	// "module.Class.test_x", for TAP the names of the enclosing subtests
	// and the test joined by " > ".
	ID string
	// Group is what the test belongs to (Go package, Python module, JUnit
	// file or classname), so a caller can map a test to files it knows.
	// It is empty when the format does not say (node's TAP).
	Group   string
	Outcome Outcome
}

// Report is one run's results.
type Report struct {
	Kind  string // the format read: "go-json", "junit", "unittest" or "tap"
	Tests []Test // sorted and unique by ID
	// Failed is true when the report shows a failure that no failing test
	// accounts for: a build failure, a panic in init, an exit in the
	// middle of a test, output that stops before the runner's summary.
	// A failing test alone does not set it, so a baseline test that
	// already failed does not condemn every later run.
	Failed bool
	Notes  []string // why Failed is set, and anything odd that was skipped over
	// Canaries are, by place (a directory relative to the checkout), how
	// the judge's canary tests there came out (canary.go); nil when none
	// were planted.
	Canaries map[string]string `json:",omitempty"`
	// Twins are the tests the task must fix reported passed whose twins
	// (twin.go) were not, each said in a sentence.
	Twins []string `json:",omitempty"`
}

// Count returns how many tests came to o.
func (r Report) Count(o Outcome) int {
	n := 0
	for _, t := range r.Tests {
		if t.Outcome == o {
			n++
		}
	}
	return n
}

// Lookup finds a test by ID.
func (r Report) Lookup(id string) (Test, bool) {
	i, ok := slices.BinarySearchFunc(r.Tests, id, func(t Test, id string) int { return strings.Compare(t.ID, id) })
	if !ok {
		return Test{}, false
	}
	return r.Tests[i], true
}

// Kinds of report, as For returns them and Parse takes them.
const (
	KindGoJSON   = "go-json"
	KindJUnit    = "junit"
	KindUnittest = "unittest"
	KindTAP      = "tap"
)

// Parse reads a report of the given kind.
func Parse(kind string, r io.Reader) (Report, error) {
	switch kind {
	case KindGoJSON:
		return ParseGoJSON(r)
	case KindJUnit:
		return ParseJUnit(r)
	case KindUnittest:
		return ParseUnittest(r)
	case KindTAP:
		return ParseTAP(r)
	}
	return Report{}, fmt.Errorf("unknown test report kind %q: want %s, %s, %s or %s", kind, KindGoJSON, KindJUnit, KindUnittest, KindTAP)
}

// maxNotes bounds the notes a parser keeps: a report with ten thousand
// stray lines needs the first few and a count, not all of them.
const maxNotes = 20

// builder gathers tests and notes while a parser reads.
type builder struct {
	kind    string
	tests   map[string]Test
	failed  bool
	whys    []string // why failed is set: first in the notes
	notes   []string
	dropped int
}

func newBuilder(kind string) *builder {
	return &builder{kind: kind, tests: map[string]Test{}}
}

// add records a test; a repeat keeps the worse outcome.
func (b *builder) add(t Test) {
	if old, ok := b.tests[t.ID]; ok && old.Outcome.rank() >= t.Outcome.rank() {
		return
	}
	b.tests[t.ID] = t
}

func (b *builder) note(format string, args ...any) {
	if len(b.notes) >= maxNotes {
		b.dropped++
		return
	}
	b.notes = append(b.notes, fmt.Sprintf(format, args...))
}

// fail marks the report failed and says why. The reasons come first in
// the notes, so a caller showing one note shows why.
func (b *builder) fail(format string, args ...any) {
	b.failed = true
	if len(b.whys) >= maxNotes {
		b.dropped++
		return
	}
	b.whys = append(b.whys, fmt.Sprintf(format, args...))
}

func (b *builder) report() Report {
	r := Report{Kind: b.kind, Failed: b.failed, Notes: append(b.whys, b.notes...)}
	if b.dropped > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("%d more notes left out", b.dropped))
	}
	for _, t := range b.tests {
		r.Tests = append(r.Tests, t)
	}
	sort.Slice(r.Tests, func(i, j int) bool { return r.Tests[i].ID < r.Tests[j].ID })
	return r
}

// clip shortens a line quoted in a note.
func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) <= 120 {
		return s
	}
	cut := 117
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// Merge combines reports of one run read from several files (Surefire and
// Gradle write a JUnit file per test class): every test of each, a test
// listed in more than one keeping its worse outcome (one failing run is a
// failure), failed when any of them is, and their notes.
func Merge(kind string, reps ...Report) Report {
	b := newBuilder(kind)
	for _, r := range reps {
		for _, t := range r.Tests {
			if _, dup := b.tests[t.ID]; dup {
				b.note("%s is reported more than once; the worst outcome counts", t.ID)
			}
			b.add(t)
		}
		notes := r.Notes
		if r.Failed { // its reason comes first in its notes
			b.failed = true
			if len(notes) > 0 {
				b.fail("%s", notes[0])
				notes = notes[1:]
			}
		}
		for _, n := range notes {
			b.note("%s", n)
		}
	}
	return b.report()
}
