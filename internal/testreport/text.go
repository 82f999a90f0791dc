package testreport

import (
	"bufio"
	"bytes"
	"io"
	"regexp"
	"strings"
)

// Failures is what a runner's plain output (the one a person reads, not a
// report) says failed: the tests it names as failing, in the order it
// names them, or, when it names none, the lines that look like a failure.
type Failures struct {
	Tests []Test // Outcome Fail; Group set where the output says it
	Lines []string
	// Unaccounted: the output shows a failure no test named accounts for
	// (a go package that failed with no failing test: it did not build,
	// TestMain exited, a test timed out), so the tests named are not the
	// whole of what failed.
	Unaccounted bool
}

var (
	// go test: "--- FAIL: TestX (0.00s)", then "FAIL\tpkg\t0.01s" for the
	// package (or "FAIL\tpkg [build failed]").
	goFailTest = regexp.MustCompile(`^\s*--- FAIL: (\S+)`)
	goFailPkg  = regexp.MustCompile(`^FAIL\t(\S+)`)
	// unittest: "FAIL: test_x (mod.Class.test_x)" or "(mod.Class)"; ERROR too.
	unittestFail = regexp.MustCompile(`^(?:FAIL|ERROR): (\S+) \(([^)]+)\)`)
	// pytest's short summary: "FAILED tests/test_x.py::test_y - assert …".
	pytestFail = regexp.MustCompile(`^(?:FAILED|ERROR) (\S+::\S+)`)
	// TAP: "not ok 2 - name # comment", indented for subtests.
	tapFail = regexp.MustCompile(`^\s*not ok \d+(?: -)? ?([^#]*)`)
	// A line that looks like a failure, for output of no known runner.
	failLine = regexp.MustCompile(`(?i)\b(fail(ed|ure|s)?|errors?|assert\w*|panic)\b`)
)

// maxFailLines bounds the lines kept when no test is named: the first and
// the last ones are where a person starts reading.
const maxFailLines = 6

// ReadFailures reads a runner's output for what failed (see Failures):
// plain output, or go test -json events (an agent task's gate runs so).
func ReadFailures(r io.Reader) (Failures, error) {
	br := bufio.NewReader(r)
	if head, _ := br.Peek(512); bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n"), []byte(`{"`)) {
		rep, err := ParseGoJSON(br)
		f := Failures{Unaccounted: rep.Failed}
		for _, t := range rep.Tests {
			if t.Outcome == Fail {
				f.Tests = append(f.Tests, t)
			}
		}
		return f, err
	}
	return readPlainFailures(br)
}

func readPlainFailures(r io.Reader) (Failures, error) {
	var f Failures
	var pending []string // go tests named before their package's FAIL line
	seen := map[string]bool{}
	add := func(t Test) {
		if !seen[t.ID] {
			seen[t.ID] = true
			f.Tests = append(f.Tests, t)
		}
	}
	var lines []string
	n := 0
	err := eachLine(r, func(line string) {
		switch {
		case goFailTest.MatchString(line):
			pending = append(pending, goFailTest.FindStringSubmatch(line)[1])
			return
		case goFailPkg.MatchString(line):
			pkg := goFailPkg.FindStringSubmatch(line)[1]
			f.Unaccounted = f.Unaccounted || len(pending) == 0
			for _, name := range pending {
				add(Test{ID: pkg + " " + name, Group: pkg, Outcome: Fail})
			}
			pending = nil
			return
		case unittestFail.MatchString(line):
			m := unittestFail.FindStringSubmatch(line)
			id, group := m[2], m[2]
			if !strings.HasSuffix(id, "."+m[1]) {
				id += "." + m[1]
			} else {
				group = strings.TrimSuffix(group, "."+m[1])
			}
			add(Test{ID: id, Group: group, Outcome: Fail})
			return
		case pytestFail.MatchString(line):
			id := pytestFail.FindStringSubmatch(line)[1]
			group, _, _ := strings.Cut(id, "::")
			add(Test{ID: id, Group: group, Outcome: Fail})
			return
		case tapFail.MatchString(line):
			if name := strings.TrimSpace(tapFail.FindStringSubmatch(line)[1]); name != "" {
				add(Test{ID: name, Outcome: Fail})
			}
			return
		}
		if failLine.MatchString(line) && strings.TrimSpace(line) != "" {
			n++
			if len(lines) < maxFailLines {
				lines = append(lines, line)
			} else {
				// keep the first half and a sliding window of the last
				copy(lines[maxFailLines/2:], lines[maxFailLines/2+1:])
				lines[maxFailLines-1] = line
			}
		}
	})
	for _, name := range pending { // output cut before the package's line
		add(Test{ID: name, Outcome: Fail})
	}
	if len(f.Tests) == 0 {
		f.Lines = lines
		if n > maxFailLines {
			f.Lines = append(append(append([]string{}, lines[:maxFailLines/2]...), "…"), lines[maxFailLines/2:]...)
		}
	}
	return f, err
}
