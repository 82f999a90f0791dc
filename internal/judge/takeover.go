package judge

import (
	"go/ast"
	"slices"
	"strconv"
	"strings"
)

// A statement that ends the test process, rewrites the test binary's
// arguments, skips every test or patches the framework at import is not
// looked for here: the judge's mechanisms see what it does (a test that
// failed at the base must be reported passed, the canaries must come out
// as written, a test file the task added is left out of the tests' base
// form; docs/judge.md). What no run of the tests can see is the code
// asking whether a test runner runs it (testchecks.go): that is looked for.

// Scans reports whether Takeovers reads files like p: Go, Python and
// JavaScript or TypeScript sources.
func Scans(p string) bool { return finder(p) != nil }

// Takeovers lists the statements of the source file p, code under test,
// that ask whether a test runner runs it (testchecks.go): code that is
// right only under test. A task that adds one weakens the judge: the
// caller compares the count before and after.
func Takeovers(p string, src []byte) []string {
	if f := finder(p); f != nil {
		return f(src)
	}
	return nil
}

func finder(p string) func([]byte) []string {
	switch {
	case strings.HasSuffix(p, ".go") && !isTestFile(p):
		return goTestChecks
	case strings.HasSuffix(p, ".py") && !isTestFile(p):
		return pyTestChecks
	case jsSource(p) && !IsTestFile(p):
		return jsTestChecks
	}
	return nil
}

// importNames maps the local names of f's imports to their paths.
func importNames(f *ast.File) map[string]string {
	names := map[string]string{}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		name := p[strings.LastIndex(p, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		names[name] = p
	}
	return names
}

// pkgSel renders pkg.Name for a selector on an imported package, by its
// import path ("os.Exit" even when os is imported under another name).
func pkgSel(e ast.Expr, names map[string]string) string {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return ""
	}
	p, ok := names[id.Name]
	if !ok {
		return ""
	}
	return p + "." + sel.Sel.Name
}

// jsSource reports JavaScript and TypeScript sources.
func jsSource(p string) bool {
	return slices.ContainsFunc([]string{".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx"}, func(e string) bool { return strings.HasSuffix(p, e) })
}
