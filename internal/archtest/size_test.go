package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines and maxMethods are the house sizes (docs/architecture.md):
// a function a reader can hold in mind, a type with one job.
const (
	maxFuncLines = 80
	maxMethods   = 30
)

// bigTypes are the types allowed more methods, each with the most it may
// have now: a count may only go down. planparse's builder is the
// parser's one pass over goldmark's tree, risk's analyzer the one walk
// of a step's shell syntax tree (one method per family of commands it
// rates, which share the walk's position and working directory).
// gitops.Repo and gitops.Index are held to maxMethods like any other
// type: committing is gitops.Commits, the moves of a landing
// gitops.Landing, and what planx judges of the index and its ignore
// rules lives with the judging (internal/run/verify).
var bigTypes = map[string]int{
	"planparse.builder": 65,
	"risk.analyzer":     31,
}

// TestSizes holds every function of the module to maxFuncLines (tests'
// tables aside: a test function is not counted) and every type to maxMethods, bigTypes aside.
func TestSizes(t *testing.T) {
	root := moduleRoot(t)
	fset := token.NewFileSet()
	methods := map[string]int{}
	err := walkGo(root, func(path string) error {
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > maxFuncLines {
				t.Errorf("%s: %s is %d lines, over %d: split it", fset.Position(fd.Pos()), fd.Name.Name, n, maxFuncLines)
			}
			if recv := receiver(fd); recv != "" {
				methods[filepath.Base(rel)+"."+recv]++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(methods) < 20 {
		t.Fatalf("only %d types with methods found under %s", len(methods), root)
	}
	for typ, n := range methods {
		limit, big := bigTypes[typ]
		if !big {
			limit = maxMethods
		}
		if n > limit {
			t.Errorf("%s has %d methods, over %d: give part of its job to a type of its own", typ, n, limit)
		}
	}
}

// receiver is the name of a method's receiver type, "" for a function.
func receiver(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	typ := fd.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if idx, ok := typ.(*ast.IndexExpr); ok {
		typ = idx.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
