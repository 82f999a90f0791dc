package testreport

import (
	"path"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// ReportPlaceholder stands in an adjusted command for the file a runner
// writes its report to (pytest's --junitxml); WithReport fills it in.
const ReportPlaceholder = "{report}"

// pythonRE matches the names of Python interpreters: python, python3,
// python3.11.
var pythonRE = regexp.MustCompile(`^python(?:3(?:\.\d+)?)?$`)

// word is a static word of a command and where it ends in the text.
type word struct {
	s   string
	end int
}

// gateCommand is a parsed single simple command.
type gateCommand struct {
	text string
	args []word
}

// insert puts an option after the given word, leaving the rest of the
// text as it was written.
func (c gateCommand) insert(after word, option string) string {
	return c.text[:after.end] + " " + option + c.text[after.end:]
}

// For tells how to get a structured report from a gate's command: the
// kind of report (for Parse) and the command adjusted to print it, or
// ok=false when it cannot tell. Only a single simple command, possibly
// with environment assignments in front, is adjusted, and only by
// inserting an option, so the command runs the same tests:
//
//	go test …              → go test -json …              (go-json)
//	python3 -m unittest …  → python3 -m unittest -v …     (unittest, on stderr)
//	pytest …               → pytest --junitxml={report} … (junit, in a file)
//	node --test …          → node --test --test-reporter=tap … (tap)
//
// Pipes, lists (; && ||), redirections, subshells and words whose value
// is known only at run time ($X, $(…)) give ok=false: the output might not
// reach the caller, or the command might run more than the tests. So does
// a command that already asks for something the adjustment would fight
// (unittest -q, pytest's own --junitxml, another node reporter). A command
// that already asks for the report comes back unchanged.
func For(command string) (kind, adjusted string, ok bool) {
	c, ok := parseGateCommand(command)
	if !ok {
		return "", "", false
	}
	args := c.args
	program := path.Base(args[0].s)
	python := pythonRE.MatchString(program) && len(args) > 2 && args[1].s == "-m"
	switch {
	case program == "go" && len(args) > 1 && args[1].s == "test":
		return forGo(c)
	case python && args[2].s == "unittest":
		return forUnittest(c)
	case python && args[2].s == "pytest":
		return forPytest(c, 2)
	case program == "pytest" || program == "py.test":
		return forPytest(c, 0)
	case program == "node":
		return forNode(c)
	}
	return "", "", false
}

func forGo(c gateCommand) (string, string, bool) {
	for _, a := range c.args[2:] {
		switch a.s {
		case "-args", "--args": // the rest is the test binary's
			return KindGoJSON, c.insert(c.args[1], "-json"), true
		case "-json", "--json", "-json=true", "--json=true":
			return KindGoJSON, c.text, true
		}
		if strings.HasPrefix(a.s, "-json=") || strings.HasPrefix(a.s, "--json=") {
			return "", "", false
		}
	}
	return KindGoJSON, c.insert(c.args[1], "-json"), true
}

func forUnittest(c gateCommand) (string, string, bool) {
	for _, a := range c.args[3:] {
		switch a.s {
		case "-v", "--verbose":
			return KindUnittest, c.text, true
		case "-q", "--quiet":
			return "", "", false
		}
	}
	// "discover" must come right after unittest: `unittest -v discover`
	// takes discover for the name of a test.
	if len(c.args) > 3 && c.args[3].s == "discover" {
		return KindUnittest, c.insert(c.args[3], "-v"), true
	}
	return KindUnittest, c.insert(c.args[2], "-v"), true
}

// forPytest adjusts a pytest command whose word "pytest" is args[at].
func forPytest(c gateCommand, at int) (string, string, bool) {
	for _, a := range c.args[at+1:] {
		if strings.HasPrefix(a.s, "--junitxml") || strings.HasPrefix(a.s, "--junit-xml") || a.s == "no:junitxml" {
			return "", "", false
		}
	}
	return KindJUnit, c.insert(c.args[at], "--junitxml="+ReportPlaceholder), true
}

func forNode(c gateCommand) (string, string, bool) {
	at := -1
	for i, a := range c.args[1:] {
		if a.s == "--test" {
			at = i + 1
			break
		}
		if !strings.HasPrefix(a.s, "-") { // a script: node runs it, not its test runner
			return "", "", false
		}
	}
	if at < 0 {
		return "", "", false
	}
	tap := false
	for _, a := range c.args[1:] {
		switch {
		case a.s == "--test-reporter=tap":
			tap = true
		case strings.HasPrefix(a.s, "--test-reporter"):
			return "", "", false
		}
	}
	if tap {
		return KindTAP, c.text, true
	}
	// TAP is Node 20's default only when stdout is not a terminal; asking
	// for it makes the report the same wherever the gate runs.
	return KindTAP, c.insert(c.args[at], "--test-reporter=tap"), true
}

// parseGateCommand parses command as shell and accepts exactly one simple
// command whose words are all known before it runs.
func parseGateCommand(command string) (gateCommand, bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil || len(f.Stmts) != 1 {
		return gateCommand{}, false
	}
	st := f.Stmts[0]
	if st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 {
		return gateCommand{}, false
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return gateCommand{}, false
	}
	c := gateCommand{text: command}
	for _, w := range call.Args {
		s, ok := staticWord(w)
		if !ok {
			return gateCommand{}, false
		}
		c.args = append(c.args, word{s: s, end: int(w.End().Offset())})
	}
	return c, true
}

// staticWord returns a word's value when quoting is all it holds.
func staticWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(lit.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// WithReport puts a file path, quoted for the shell, in place of
// ReportPlaceholder in a command For adjusted.
func WithReport(adjusted, file string) (string, error) {
	q, err := syntax.Quote(file, syntax.LangBash)
	if err != nil {
		return "", err
	}
	return strings.ReplaceAll(adjusted, ReportPlaceholder, q), nil
}
