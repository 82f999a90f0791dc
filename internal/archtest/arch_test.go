package archtest

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/planx-dev/planx/"

// rules are the two tables of docs/architecture.md, the one copy of the
// import rules: the planx packages each package may import directly, and
// those it must not reach even indirectly.
type rules struct {
	mayImport, never map[string][]string
}

// tableCode picks the backticked names of a table cell.
var tableCode = regexp.MustCompile("`([^`]+)`")

// readRules parses the tables under "## The import table" and "## Never,
// even indirectly" in docs/architecture.md: a row is | `pkg` | `a` `b` | …
func readRules(t *testing.T) rules {
	t.Helper()
	path := filepath.Join(moduleRoot(t), "docs", "architecture.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := rules{mayImport: map[string][]string{}, never: map[string][]string{}}
	var table map[string][]string
	for i, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			table = nil
			switch strings.TrimPrefix(line, "## ") {
			case "The import table":
				table = r.mayImport
			case "Never, even indirectly":
				table = r.never
			}
		case table != nil && strings.HasPrefix(line, "| `"):
			cells := strings.Split(line, "|")
			if len(cells) < 4 {
				t.Fatalf("%s:%d: a row is | `package` | `import` … |", path, i+1)
			}
			name := strings.Trim(strings.TrimSpace(cells[1]), "`")
			if _, dup := table[name]; dup {
				t.Fatalf("%s:%d: %s has two rows", path, i+1, name)
			}
			list := []string{}
			for _, m := range tableCode.FindAllStringSubmatch(cells[2], -1) {
				list = append(list, m[1])
			}
			table[name] = list
		}
	}
	if len(r.mayImport) < 20 || len(r.never) < 10 {
		t.Fatalf("%s: read only %d import rows and %d never rows: did a heading change?", path, len(r.mayImport), len(r.never))
	}
	return r
}

type pkg struct {
	path          string // relative to the module
	imports, deps []string
}

// list runs go list on the module's packages (tests excluded: a test may
// drive the executor to make history to read).
func list(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}|{{join .Imports " "}}|{{join .Deps " "}}`, module+"...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []pkg
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "|")
		pkgs = append(pkgs, pkg{path: strings.TrimPrefix(f[0], module), imports: own(f[1]), deps: own(f[2])})
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found only %d packages:\n%s", len(pkgs), out)
	}
	return pkgs
}

// own keeps the planx packages of a space-separated import list.
func own(list string) []string {
	var out []string
	for _, p := range strings.Fields(list) {
		if rel, ok := strings.CutPrefix(p, module); ok {
			out = append(out, rel)
		}
	}
	return out
}

// isFace: the command line, and the test packages under it that run its
// scenarios (internal/command/scenarios/…) against the whole of planx.
func isFace(p string) bool {
	return p == "cmd/planx" || p == "internal/command" || strings.HasPrefix(p, "internal/command/")
}

// TestImportTable checks every direct import against the table, that
// nothing but Face imports the executor or internal/command, and that
// every package is in the table (a new package must be placed in it).
func TestImportTable(t *testing.T) {
	r := readRules(t)
	for _, p := range list(t) {
		if isFace(p.path) || p.path == "internal/gittest" || p.path == "internal/archtest" || strings.HasPrefix(p.path, "bench/") {
			continue
		}
		allowed, ok := r.mayImport[p.path]
		if !ok {
			t.Errorf("%s is not in the import table of docs/architecture.md: place it there", p.path)
			continue
		}
		for _, imp := range p.imports {
			if !slices.Contains(allowed, imp) {
				t.Errorf("%s imports %s: not allowed by docs/architecture.md", p.path, imp)
			}
		}
		for _, d := range p.deps {
			if d == "internal/run/drive" || d == "internal/command" {
				t.Errorf("%s depends on %s: only cmd/planx and internal/command may", p.path, d)
			}
		}
	}
}

// TestNeverArrows checks the never-arrows through the whole dependency
// graph: `go list -deps ./internal/review | grep executor` printing nothing, and
// its kin.
func TestNeverArrows(t *testing.T) {
	never := readRules(t).never
	found := 0
	for _, p := range list(t) {
		forbidden, ok := never[p.path]
		if !ok {
			continue
		}
		found++
		for _, d := range p.deps {
			if slices.Contains(forbidden, d) {
				t.Errorf("%s depends on %s (go list -deps ./%s | grep %s)", p.path, d, p.path, d)
			}
		}
	}
	if found != len(never) {
		t.Fatalf("checked %d of the %d packages with never-arrows: one was renamed?", found, len(never))
	}
}

// TestOnlyGitopsRunsGit looks for the program name "git" passed to a call
// or put in a list (exec.Command("git", ...), Args: []string{"git", ...})
// outside gitops and the test helpers (internal/gittest, and
// internal/advsuite, whose audit reads what an agent left with git of its
// own, not with the planx it judges). Comparing a word of a user's step
// with "git" (the risk classifier) is not running it.
func TestOnlyGitopsRunsGit(t *testing.T) {
	root := moduleRoot(t)
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch rel {
			case "gitops", "internal/gittest", "internal/advsuite", "bench", "memory-bank", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			var args []ast.Expr
			switch n := n.(type) {
			case *ast.CallExpr:
				args = n.Args
			case *ast.CompositeLit:
				args = n.Elts
			}
			for _, a := range args {
				if isGit(a) {
					t.Errorf("%s: \"git\" as an argument outside gitops: only gitops runs git", fset.Position(a.Pos()))
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("only %d Go files checked under %s", checked, root)
	}
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

func isGit(e ast.Expr) bool {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return false
	}
	s, err := strconv.Unquote(lit.Value)
	return err == nil && s == "git"
}

// TestJudgeIsPure: the judge's checks take bytes and paths, so that they
// are tested with literal input and cannot be fooled by what a task left
// on disk: the package opens no file and starts no process.
func TestJudgeIsPure(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", `{{join .Imports " "}}|{{join .Deps " "}}`, module+"internal/judge")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	imports, deps, _ := strings.Cut(strings.TrimSpace(string(out)), "|")
	for _, bad := range []string{"os", "os/exec", "io/ioutil"} {
		if slices.Contains(strings.Fields(imports), bad) {
			t.Errorf("judge imports %s", bad)
		}
	}
	if slices.Contains(strings.Fields(deps), "os/exec") {
		t.Errorf("judge depends on os/exec")
	}
}
