package judge

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// A Go package's init functions and package-level initializers run in
// its test binary before any test. One that ends the process (os.Exit(0))
// or rewrites the binary's arguments (os.Args += -test.run=^$, flag.Set)
// makes `go test` report ok without running a test: checked with Go 1.26
// on a package whose only test fails, from a new _test.go as well as from
// the code under test. Whichever file it is added to, that is never a
// task's work: a task that adds one fails (an agent's; a shell task,
// written by the user, gets a warning), declared or not.

// Python's counterpart: a module that calls os._exit(0) as it is
// imported ends pytest or unittest with success during collection
// (checked with python3 -m unittest), and pytest.skip(...,
// allow_module_level=True) in the code under test skips every test module
// that imports it, and `unittest.TestCase.assertEqual = lambda *a, **k:
// None` there makes every assertion pass (checked with python3 -m
// unittest). Only statements outside function bodies count (pyimport.go).

// Scans reports whether Takeovers reads files like p: Go, Python and
// JavaScript or TypeScript sources.
func Scans(p string) bool { return finder(p) != nil }

// Takeovers lists the statements of the source file p that decide whether
// its tests run: in tests, what ends the process or rewrites the test
// binary's arguments; in code under test, those and the questions whether
// a test runner runs it (testchecks.go). A task that adds one weakens the
// judge: the caller compares the count before and after.
func Takeovers(p string, src []byte) []string {
	if f := finder(p); f != nil {
		return f(src)
	}
	return nil
}

func finder(p string) func([]byte) []string {
	switch {
	case strings.HasSuffix(p, ".go") && isTestFile(p):
		return goTakeovers
	case strings.HasSuffix(p, ".go"):
		return func(b []byte) []string { return append(goTakeovers(b), goTestChecks(b)...) }
	case strings.HasSuffix(p, ".py") && isTestFile(p):
		return pyTakeovers
	case strings.HasSuffix(p, ".py"):
		return func(b []byte) []string { return append(pyTakeovers(b), pyTestChecks(b)...) }
	case jsSource(p) && !IsTestFile(p):
		return jsTestChecks
	}
	return nil
}

// goTakeovers lists, in src, the calls and assignments of init functions
// and package-level initializers that end the process or set the test
// binary's arguments. Source that does not parse lists none: it fails to
// build, and the gate with it.
func goTakeovers(src []byte) []string {
	if len(src) == 0 {
		return nil
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	names := importNames(f)
	var out []string
	var look func(n ast.Node) bool
	look = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // runs only if called: see CallExpr
		case *ast.CallExpr:
			if fl, ok := n.Fun.(*ast.FuncLit); ok {
				ast.Inspect(fl.Body, look)
			}
			if what := takeoverCall(n.Fun, names); what != "" {
				out = append(out, what)
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if ix, ok := l.(*ast.IndexExpr); ok {
					l = ix.X
				}
				if pkgSel(l, names) == "os.Args" {
					out = append(out, "sets os.Args")
				}
			}
		}
		return true
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == "init" && d.Body != nil {
				ast.Inspect(d.Body, look)
			}
		case *ast.GenDecl:
			if d.Tok == token.VAR {
				for _, s := range d.Specs {
					for _, v := range s.(*ast.ValueSpec).Values {
						ast.Inspect(v, look)
					}
				}
			}
		}
	}
	return out
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

// takeoverCall names a call that ends the process or sets flags.
func takeoverCall(fun ast.Expr, names map[string]string) string {
	switch s := pkgSel(fun, names); s {
	case "os.Exit", "syscall.Exit", "golang.org/x/sys/unix.Exit", "runtime.Goexit":
		return "calls " + s[strings.LastIndex(s, "/")+1:]
	case "flag.Set":
		return "calls flag.Set"
	}
	// flag.CommandLine.Set, flag.CommandLine.Parse
	if sel, ok := fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Set" || sel.Sel.Name == "Parse") && pkgSel(sel.X, names) == "flag.CommandLine" {
		return "calls flag.CommandLine." + sel.Sel.Name
	}
	return ""
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
