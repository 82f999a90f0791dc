package executor

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"regexp"
	"strings"
)

// Code under test that asks whether it runs under a test runner can hand
// the tests the answers they expect and do something else everywhere
// else: `if testing.Testing() { return 12 }` in calc.go passes go test for
// a Mul that adds. No ordinary work needs to ask: a task that adds such a
// question to code (test files aside) fails, declared or not.

// goTestChecks lists the calls of testing.Testing in src.
func goTestChecks(src []byte) []string {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	names := importNames(f)
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && pkgSel(c.Fun, names) == "testing.Testing" {
			out = append(out, "asks whether it runs under go test")
		}
		return true
	})
	return out
}

// pyTestCheckRE matches a Python module asking whether pytest or unittest
// runs it: pytest's per-test environment variable, or the runner's module
// looked up in sys.modules.
var pyTestCheckRE = regexp.MustCompile(`PYTEST_CURRENT_TEST|PYTEST_VERSION` +
	`|['"](?:_?pytest|unittest)['"]\s+(?:not\s+)?in\s+sys\.modules|sys\.modules\.get\(\s*['"](?:_?pytest|unittest)['"]`)

// pyTestChecks lists such questions in src.
func pyTestChecks(src []byte) []string {
	var out []string
	for range pyTestCheckRE.FindAll(src, -1) {
		out = append(out, "asks whether it runs under a test runner")
	}
	return out
}

// isTestFile reports whether p is a test file of the language's own
// naming (where asking is the test's business).
func isTestFile(p string) bool {
	b := path.Base(p)
	return strings.HasSuffix(b, "_test.go") || strings.HasPrefix(b, "test_") || strings.HasSuffix(b, "_test.py") ||
		b == "conftest.py"
}
