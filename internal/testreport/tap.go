package testreport

import (
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// TAP as node --test prints it (TAP version 13 with TAP 14's subtests):
// "ok 1 - name", "not ok 2 - name # SKIP why", subtests indented four
// spaces under a "# Subtest: name" comment and closed by their parent's
// own test point, a YAML block after each point, "1..N" plans, and node's
// "# tests N" / "# fail N" tally at the end.
var (
	tapPointRE = regexp.MustCompile(`^(not ok|ok)\b(?:\s+\d+)?(?:\s*-)?\s*(.*)$`)
	tapPlanRE  = regexp.MustCompile(`^1\.\.(\d+)`)
	tapTallyRE = regexp.MustCompile(`^# (tests|pass|fail|cancelled|skipped|todo) (\d+)$`)
)

// tapPoint is a test point whose ID is known relative to its parent.
type tapPoint struct {
	rel     string // its name, and its subtests' as "name > sub"
	outcome Outcome
	suite   bool // node marks describe() blocks type: 'suite'; its tally leaves them out
}

// tapState is ParseTAP's reading state.
type tapState struct {
	b       *builder
	waiting map[int][]*tapPoint // points at each depth whose parent has not closed
	names   map[int]string      // "# Subtest:" names by depth, for points cut off
	last    *tapPoint           // the point a YAML block belongs to
	yaml    int                 // indentation of the open YAML block; -1 when none
	top     int                 // depth-0 points
	plan    int                 // depth-0 plan; -1 until read
	tally   map[string]int
	points  []*tapPoint // every closed point, for the tally
	bailed  bool
}

// ParseTAP reads TAP from node --test (the default reporter of Node 20
// when stdout is not a terminal, and --test-reporter=tap). A subtest's ID
// is its parents' names and its own joined by " > "; a parent is a test
// too. SKIP and TODO points are skipped. Failed is set by a missing or
// unmet top-level plan (the run stopped early), "Bail out!", or node's tally
// counting more failures than the points show.
func ParseTAP(r io.Reader) (Report, error) {
	s := &tapState{b: newBuilder(KindTAP), waiting: map[int][]*tapPoint{}, names: map[int]string{}, yaml: -1, plan: -1, tally: map[string]int{}}
	err := eachLine(r, s.line)
	s.finish()
	return s.b.report(), err
}

func (s *tapState) line(line string) {
	body := strings.TrimLeft(line, " ")
	indent := len(line) - len(body)
	if s.yaml >= 0 {
		if indent == s.yaml && strings.TrimRight(body, " ") == "..." {
			s.yaml = -1
		} else if indent == s.yaml && s.last != nil && strings.TrimSpace(body) == "type: 'suite'" {
			s.last.suite = true
		}
		return
	}
	depth := indent / 4
	switch {
	case strings.TrimRight(body, " ") == "---" && s.last != nil:
		s.yaml = indent
	case strings.HasPrefix(body, "# Subtest: "):
		s.names[depth] = tapUnescape(strings.TrimPrefix(body, "# Subtest: "))
	case strings.HasPrefix(body, "Bail out!"):
		s.bailed = true
		s.b.fail("TAP bailed out: %s", clip(body))
	case depth == 0 && tapPlanRE.MatchString(body):
		s.plan, _ = strconv.Atoi(tapPlanRE.FindStringSubmatch(body)[1])
	case depth == 0 && tapTallyRE.MatchString(body):
		m := tapTallyRE.FindStringSubmatch(body)
		s.tally[m[1]], _ = strconv.Atoi(m[2])
	default:
		if m := tapPointRE.FindStringSubmatch(body); m != nil {
			s.point(depth, m[1] == "ok", m[2])
		}
	}
}

// point closes a test point: its waiting subtests get its name in front
// and move up with it.
func (s *tapState) point(depth int, ok bool, desc string) {
	name, directive := tapSplit(desc)
	p := &tapPoint{rel: name, outcome: Fail}
	if ok {
		p.outcome = Pass
	}
	if d := strings.ToUpper(directive); strings.HasPrefix(d, "SKIP") || strings.HasPrefix(d, "TODO") {
		p.outcome = Skip
	}
	s.last = p
	s.points = append(s.points, p)
	children := s.waiting[depth+1]
	delete(s.waiting, depth+1)
	for _, c := range children {
		c.rel = name + " > " + c.rel
	}
	all := append(children, p)
	if depth > 0 {
		s.waiting[depth] = append(s.waiting[depth], all...)
		return
	}
	s.top++
	for _, c := range all {
		s.b.add(Test{ID: c.rel, Outcome: c.outcome})
	}
}

func (s *tapState) finish() {
	depths := slices.Sorted(maps.Keys(s.waiting))
	for _, depth := range depths {
		// The parents never closed: the run stopped inside them.
		points := s.waiting[depth]
		prefix := ""
		for d := 0; d < depth; d++ {
			prefix += s.names[d] + " > "
		}
		for _, p := range points {
			s.b.add(Test{ID: prefix + p.rel, Outcome: p.outcome})
		}
		s.b.fail("the TAP stream stops inside %q: the run did not finish", strings.TrimSuffix(prefix, " > "))
	}
	switch {
	case s.plan < 0 && !s.bailed:
		s.b.fail("the TAP stream has no plan (1..N): the run did not finish")
	case s.plan >= 0 && s.plan != s.top:
		s.b.fail("the TAP plan says %d tests but %d were reported", s.plan, s.top)
	}
	failing := 0
	for _, p := range s.points {
		if p.outcome == Fail && !p.suite {
			failing++
		}
	}
	if want := s.tally["fail"] + s.tally["cancelled"]; want > failing {
		s.b.fail("node counts %d failed or cancelled tests but %d failing test points were read", want, failing)
	}
}

// tapSplit cuts a point's description at its first unescaped "#", the
// start of a directive, and unescapes the name.
func tapSplit(desc string) (name, directive string) {
	for i := 0; i < len(desc); i++ {
		switch desc[i] {
		case '\\':
			i++
		case '#':
			return tapUnescape(strings.TrimSpace(desc[:i])), strings.TrimSpace(desc[i+1:])
		}
	}
	return tapUnescape(strings.TrimSpace(desc)), ""
}

// tapUnescape undoes node's escaping of names: \\ \# \n \t \r \b \f.
func tapUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
