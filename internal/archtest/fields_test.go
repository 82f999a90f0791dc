package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// maxCallbacks is how many function-typed struct fields the engine
// (internal/run) may hold: its parts report through one hallway
// (hall.Desk) and are handed values, not closures calling back up into
// the runner. A named type whose underlying type is a function counts
// as one too.
const maxCallbacks = 4

// TestEngineCallbacks holds the engine to maxCallbacks.
func TestEngineCallbacks(t *testing.T) {
	root := filepath.Join(moduleRoot(t), "internal", "run")
	fset := token.NewFileSet()
	var files []*ast.File
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err == nil {
			files = append(files, f)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	funcTypes := map[string]bool{} // named function types declared in the engine
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				if _, ok := ts.Type.(*ast.FuncType); ok {
					funcTypes[ts.Name.Name] = true
				}
			}
			return true
		})
	}
	var found []string
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			for _, fl := range st.Fields.List {
				if !isCallback(fl.Type, funcTypes) {
					continue
				}
				names := []string{"(embedded)"}
				if len(fl.Names) > 0 {
					names = names[:0]
					for _, n := range fl.Names {
						names = append(names, n.Name)
					}
				}
				for _, n := range names {
					found = append(found, fset.Position(fl.Pos()).String()+": "+ts.Name.Name+"."+n)
				}
			}
			return true
		})
	}
	if len(files) < 50 {
		t.Fatalf("only %d files read under %s", len(files), root)
	}
	if len(found) > maxCallbacks {
		sort.Strings(found)
		t.Errorf("the engine holds %d function-typed fields, over %d: hand a value or a hall.Desk down instead\n%s",
			len(found), maxCallbacks, strings.Join(found, "\n"))
	}
}

func isCallback(e ast.Expr, funcTypes map[string]bool) bool {
	switch x := e.(type) {
	case *ast.FuncType:
		return true
	case *ast.Ident:
		return funcTypes[x.Name]
	case *ast.StarExpr:
		return isCallback(x.X, funcTypes)
	}
	return false
}
