package testreport

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// junitSuite is a <testsuite> being read: what it says it holds and what
// was found in it.
type junitSuite struct {
	name     string
	declared int // its failures + errors attributes
	found    int // failing test cases inside it, nested suites included
}

// ParseJUnit reads JUnit XML as pytest --junitxml, jest-junit, Maven
// Surefire, node's junit reporter and PHPUnit write it: <testcase>s in
// <testsuite>s, which may nest and may sit in a <testsuites> root or be the
// root themselves; several documents may follow one another (Surefire
// writes one file per class). A case with <failure> or <error> fails, else
// one with <skipped> is skipped, else it passed; Surefire's <flakyFailure>
// alone is a pass on rerun. The ID is "classname.name" (the name alone when
// the classname is empty or repeats the name, as jest-junit's does); the
// group is the file attribute, else the classname unless it repeats the
// name.
//
// A suite that counts more failures and errors than it holds failing cases
// sets Failed. XML that does not parse returns what was read, with Failed
// set, and the error.
func ParseJUnit(r io.Reader) (Report, error) {
	b := newBuilder(KindJUnit)
	data, err := io.ReadAll(r)
	if err != nil {
		b.fail("reading the JUnit report: %v", err)
		return b.report(), err
	}
	d := xml.NewDecoder(bytes.NewReader(xmlSafe(data)))
	var stack []*junitSuite
	cases := 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			b.fail("the JUnit report is not well-formed XML: %v", err)
			return b.report(), fmt.Errorf("junit report: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "testsuite":
				stack = append(stack, &junitSuite{name: attr(t, "name"), declared: atoi(attr(t, "failures")) + atoi(attr(t, "errors"))})
			case "testcase":
				test, err := junitCase(d, t)
				if err != nil {
					b.fail("the JUnit report is not well-formed XML: %v", err)
					return b.report(), fmt.Errorf("junit report: %w", err)
				}
				cases++
				if _, dup := b.tests[test.ID]; dup {
					b.note("%s is listed more than once; the worst outcome counts", test.ID)
				}
				b.add(test)
				if test.Outcome == Fail && len(stack) > 0 {
					stack[len(stack)-1].found++
				}
			}
		case xml.EndElement:
			if t.Name.Local != "testsuite" || len(stack) == 0 {
				continue
			}
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if s.found < s.declared {
				b.fail("suite %q counts %d failures and errors but holds %d failing test cases", s.name, s.declared, s.found)
			}
			if len(stack) > 0 {
				stack[len(stack)-1].found += s.found
			}
		}
	}
	if cases == 0 {
		b.note("the JUnit report holds no test case")
	}
	return b.report(), nil
}

// junitCase reads one <testcase> to its end.
func junitCase(d *xml.Decoder, start xml.StartElement) (Test, error) {
	class := strings.TrimSpace(attr(start, "classname"))
	name := strings.TrimSpace(attr(start, "name"))
	id := name
	if class != "" && class != name {
		id = class + "." + name
	}
	// jest-junit's classname repeats the name by default: no group then.
	group := attr(start, "file")
	if group == "" && class != name {
		group = class
	}
	outcome := Pass
	for depth := 1; depth > 0; {
		tok, err := d.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return Test{}, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			// Only direct children count: a <failure> inside some
			// tool's <properties> of a case is not the case failing.
			if depth != 2 {
				continue
			}
			switch t.Name.Local {
			case "failure", "error":
				outcome = Fail
			case "skipped":
				if outcome == Pass {
					outcome = Skip
				}
			}
		case xml.EndElement:
			depth--
		}
	}
	return Test{ID: id, Group: group, Outcome: outcome}, nil
}

func attr(e xml.StartElement, name string) string {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// atoi reads a count attribute; pytest and Surefire write integers, a
// missing or odd one counts as zero.
func atoi(s string) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// charRef matches numeric character references.
var charRef = regexp.MustCompile(`&#(x[0-9a-fA-F]+|[0-9]+);`)

// xmlSafe replaces the characters XML 1.0 forbids, raw or as &#NN;, with
// a space. Surefire and others copy a test's output, ANSI colour escapes
// and all, into the report, and encoding/xml rejects the whole document for
// one such character; only the text of messages changes.
func xmlSafe(data []byte) []byte {
	out := bytes.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' {
			return ' '
		}
		return r
	}, data)
	return charRef.ReplaceAllFunc(out, func(ref []byte) []byte {
		s := string(ref[2 : len(ref)-1])
		base := 10
		if s[0] == 'x' {
			s, base = s[1:], 16
		}
		n, err := strconv.ParseUint(s, base, 32)
		if err != nil || (n < 0x20 && n != '\t' && n != '\n' && n != '\r') || (n >= 0xD800 && n <= 0xDFFF) || n == 0xFFFE || n == 0xFFFF || n > 0x10FFFF {
			return []byte(" ")
		}
		return ref
	})
}
