package testreport

import (
	"io"
	"regexp"
	"strconv"
	"strings"
)

// Python's unittest in verbose mode prints, per test, "name (where) ... "
// and then its result, where is "module.Class.name" from 3.11 on and
// "module.Class" before. A docstring's first line moves the " ... " to a
// line of its own; a test's own output lands between the dots and the
// result; a failing subtest prints an indented line of its own (3.11+) or
// nothing (before). After the results come "FAIL: name (where)" sections,
// "Ran N tests" and OK or FAILED (...).
var (
	utStartRE   = regexp.MustCompile(`^\s*([^\s()]+) \(([^\s()]+)\)(.*?) \.\.\. ?(.*)$`)
	utHeaderRE  = regexp.MustCompile(`^([^\s()]+) \(([^\s()]+)\)$`)
	utSectionRE = regexp.MustCompile(`^(FAIL|ERROR|UNEXPECTED SUCCESS): ([^\s()]+) \(([^\s()]+)\)`)
	utRanRE     = regexp.MustCompile(`^Ran (\d+) tests? in `)
	utVerdictRE = regexp.MustCompile(`^(OK|FAILED|NO TESTS RAN)(?: \((.*)\))?$`)
	utSkipRE    = regexp.MustCompile(`skipped (?:'.*'|".*")$`)
)

// utTest is the test whose result is awaited.
type utTest struct {
	id, group string
	desc      bool // a docstring line comes before the " ... "
}

// utState is ParseUnittest's reading state.
type utState struct {
	b       *builder
	pending *utTest
	ran     int  // -1 until "Ran N tests"
	verdict bool // the OK or FAILED line was read
}

// ParseUnittest reads `python -m unittest -v` output (stderr, usually read
// together with stdout). Errors, failures, unexpected successes and
// failing subtests fail their test; an expected failure is skipped (it did not pass). Failures
// named in the FAIL:/ERROR: sections after the run fail their test whatever
// the progress lines said, so a test's own output cannot pass it. A
// failing setUpClass or setUpModule is a failing test named after it.
//
// A test that starts and prints no result fails. Failed is set when the
// output stops before the summary (the process died or exited), the
// summary says FAILED and no test failed, or "Ran N tests" disagrees with
// the tests read (a line was lost, or a test printed a fake one).
func ParseUnittest(r io.Reader) (Report, error) {
	s := &utState{b: newBuilder(KindUnittest), ran: -1}
	err := eachLine(r, s.line)
	s.finish()
	return s.b.report(), err
}

func (s *utState) line(line string) {
	if s.ran >= 0 {
		s.summary(line)
		return
	}
	if m := utRanRE.FindStringSubmatch(line); m != nil {
		s.resolve()
		s.ran, _ = strconv.Atoi(m[1])
		return
	}
	if m := utSectionRE.FindStringSubmatch(line); m != nil {
		s.resolve()
		id, group := utID(m[2], m[3])
		s.b.tests[id] = Test{ID: id, Group: group, Outcome: Fail}
		return
	}
	if p := s.pending; p != nil && p.desc {
		if _, rest, ok := strings.Cut(line, " ... "); ok {
			p.desc = false
			s.result(rest)
		}
		return
	}
	fresh := false // a test started on this line
	for {
		m := utStartRE.FindStringSubmatch(line)
		if m == nil {
			break
		}
		if m[3] != "" { // a subtest: "name (where) (i=2) ... FAIL"
			if o, ok := utResult(m[4]); ok && o == Fail {
				id, group := utID(m[1], m[2])
				s.b.add(Test{ID: id, Group: group, Outcome: Fail})
			}
			return
		}
		s.start(m[1], m[2])
		fresh = true
		// Before 3.11 a test whose subtests failed prints no result:
		// the next test starts on its line.
		line = m[4]
	}
	if s.pending != nil && !s.settled() {
		if s.result(line) {
			return
		}
	}
	// A docstring's "name (where)" line. While a test awaits its result
	// this could be that test's output, unless it follows the test's dots
	// (before 3.11) or a subtest already failed the test (3.11+ prints no
	// result for it then).
	if m := utHeaderRE.FindStringSubmatch(line); m != nil && (fresh || s.settled()) {
		s.start(m[1], m[2])
		s.pending.desc = true
		return
	}
	if s.pending == nil {
		if _, ok := utResult(line); ok {
			s.b.note("a result with no test before it: %s", clip(line))
		}
	}
}

// settled tells whether a new test may start here: none awaits a result,
// or the one that does was failed by a subtest.
func (s *utState) settled() bool {
	if s.pending == nil {
		return true
	}
	t, ok := s.b.tests[s.pending.id]
	return ok && t.Outcome == Fail
}

// start begins a test, closing one that is still waiting.
func (s *utState) start(name, where string) {
	s.resolve()
	id, group := utID(name, where)
	s.pending = &utTest{id: id, group: group}
}

// result takes text as the pending test's result when it is one.
func (s *utState) result(text string) bool {
	o, ok := utResult(text)
	if !ok {
		return false
	}
	p := s.pending
	s.pending = nil
	s.b.add(Test{ID: p.id, Group: p.group, Outcome: o})
	return true
}

// resolve closes a test that printed no result: it fails unless a failing
// subtest already failed it.
func (s *utState) resolve() {
	p := s.pending
	if p == nil {
		return
	}
	s.pending = nil
	if t, ok := s.b.tests[p.id]; ok && t.Outcome == Fail {
		return
	}
	s.b.note("%s printed no result", p.id)
	s.b.add(Test{ID: p.id, Group: p.group, Outcome: Fail})
}

func (s *utState) summary(line string) {
	if s.verdict {
		return
	}
	m := utVerdictRE.FindStringSubmatch(line)
	if m == nil {
		return
	}
	s.verdict = true
	if m[1] == "FAILED" && s.failing() == 0 {
		s.b.fail("unittest says %s but no test failed", clip(line))
	}
}

func (s *utState) failing() int {
	n := 0
	for _, t := range s.b.tests {
		if t.Outcome == Fail {
			n++
		}
	}
	return n
}

func (s *utState) finish() {
	if p := s.pending; p != nil {
		s.b.fail("the output stops during %s: the process exited or was killed before unittest's summary", p.id)
		s.pending = nil
		s.b.add(Test{ID: p.id, Group: p.group, Outcome: Fail})
	}
	if s.ran < 0 || !s.verdict {
		s.b.fail("no unittest summary (Ran N tests, then OK or FAILED): the run did not finish")
		return
	}
	total, skipped := 0, 0
	for _, t := range s.b.tests {
		if utFixture(t.ID) {
			continue
		}
		total++
		if t.Outcome == Skip {
			skipped++
		}
	}
	// Python 3.12.1 leaves skipped tests out of its count.
	if s.ran > total || s.ran < total-skipped {
		s.b.fail("unittest ran %d tests but %d were read from its output", s.ran, total)
	}
}

// utResult reads a progress result. The result is the end of the line: a
// test's output printed without a newline comes before it.
func utResult(text string) (Outcome, bool) {
	text = strings.TrimRight(text, " ")
	switch {
	case strings.HasSuffix(text, "unexpected success"):
		return Fail, true
	case strings.HasSuffix(text, "expected failure"):
		// Not a pass: code under test can mark a failing test as
		// expected to fail (unittest.expectedFailure applied at import).
		return Skip, true
	case strings.HasSuffix(text, "ok"):
		return Pass, true
	case strings.HasSuffix(text, "FAIL"), strings.HasSuffix(text, "ERROR"):
		return Fail, true
	case utSkipRE.MatchString(text), text == "skipped":
		return Skip, true
	}
	return "", false
}

// utID makes a test's ID and group from "name (where)": where is
// module.Class.name from Python 3.11 on, module.Class before, the module
// for setUpModule, and unittest.loader's stand-in class for a module that
// failed to import (its name is then the module's).
func utID(name, where string) (id, group string) {
	class := where
	if strings.HasSuffix(where, "."+name) {
		class = strings.TrimSuffix(where, "."+name)
	}
	id = class + "." + name
	switch {
	case strings.HasPrefix(class, "unittest.loader."):
		group = name
	case name == "setUpModule" || name == "tearDownModule":
		group = class
	default:
		group = class
		if i := strings.LastIndexByte(class, '.'); i >= 0 {
			group = class[:i]
		}
	}
	return id, group
}

// utFixture tells the stand-in tests for failing class and module fixtures,
// which unittest does not count among the tests it ran.
func utFixture(id string) bool {
	i := strings.LastIndexByte(id, '.')
	switch id[i+1:] {
	case "setUpClass", "tearDownClass", "setUpModule", "tearDownModule":
		return true
	}
	return false
}
