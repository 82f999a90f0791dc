package archtest

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/planx-dev/planx/"

// mayImport is the table of docs/architecture.md: the planx packages each
// part may import directly. Face (cmd/planx, internal/command) may import
// anything and is not listed.
var mayImport = map[string][]string{
	"internal/review":         {"planparse", "gitops", "gates", "internal/record", "internal/linediff"},
	"internal/run/executor":   {"planparse", "gitops", "gates", "execlog", "internal/agent", "internal/risk", "internal/approval", "internal/record", "internal/proc", "internal/fsutil", "internal/linediff", "internal/prompt", "internal/secretscan", "internal/textsafe", "internal/sandbox", "internal/testreport", "internal/fault", "internal/judge", "internal/progress", "internal/outcome", "internal/run/runstate", "internal/run/attempt", "internal/run/planfile", "internal/run/execute", "internal/run/gaterun", "internal/ledger", "internal/run/verify", "internal/run/checks", "internal/run/wave", "internal/run/runplan", "internal/run/rewind", "internal/run/handconfig", "internal/run/taskgate", "internal/run/runstart"},
	"internal/run/execute":    {"planparse", "gitops", "gates", "execlog", "internal/agent", "internal/outcome", "internal/progress", "internal/record", "internal/proc", "internal/fsutil", "internal/sandbox", "internal/fault"},
	"internal/run/gaterun":    {"planparse", "gitops", "gates", "execlog", "internal/judge", "internal/progress", "internal/outcome", "internal/run/runstate", "internal/fsutil", "internal/testreport", "internal/textsafe"},
	"internal/run/taskgate":   {"execlog", "internal/run/gaterun", "gates", "gitops", "internal/run/handconfig", "internal/fault", "internal/ledger", "internal/outcome", "planparse", "internal/progress", "internal/record", "internal/run/runstate", "internal/run/wave"},
	"internal/ledger":         {"planparse", "gitops", "gates", "execlog", "internal/progress", "internal/record", "internal/textsafe"},
	"internal/judge":          {},
	"internal/run/handconfig": {"gates", "gitops", "planparse", "internal/run/runstate"},
	"internal/run/runstart":   {"execlog", "gates", "gitops", "planparse", "internal/record", "internal/run/runstate", "internal/run/verify"},
	"internal/run/runplan":    {"internal/agent", "internal/approval", "gates", "gitops", "internal/linediff", "internal/textsafe", "internal/judge", "internal/run/planfile", "planparse", "internal/progress", "internal/record", "internal/risk"},
	"internal/run/checks":     {"internal/run/gaterun", "gates", "gitops", "internal/textsafe", "internal/judge", "internal/outcome", "planparse", "internal/record", "internal/run/runstate", "internal/run/verify"},
	"internal/run/verify":     {"planparse", "gitops", "execlog", "internal/judge", "internal/outcome", "internal/record", "internal/secretscan", "internal/textsafe"},
	"internal/run/wave":       {"gitops", "planparse", "internal/progress", "internal/outcome", "execlog", "internal/ledger", "internal/record", "internal/fault"},
	"internal/run/rewind":     {"execlog", "gates", "gitops", "internal/record", "internal/run/runstate", "internal/run/wave"},
	"internal/outcome":        {},
	"internal/run/attempt":    {"gitops", "planparse", "internal/progress", "internal/record", "internal/run/runstate", "internal/textsafe"},
	"internal/run/planfile":   {"gitops", "planparse", "internal/record", "internal/fsutil", "internal/linediff", "internal/textsafe"},
	"internal/run/runstate":   {"gates", "gitops", "planparse", "execlog", "internal/record", "internal/fsutil"},
	"internal/fault":          {},
	"internal/progress":       {"planparse", "gates", "gitops", "internal/record", "internal/textsafe"},
	"internal/approval":       {"planparse", "gitops", "internal/risk", "internal/textsafe"},
	"internal/risk":           {"planparse", "internal/textsafe"},
	"internal/agent":          {"planparse"},
	"planparse":               {"internal/suggest"},
	"gates":                   {"planparse", "internal/proc", "internal/suggest"},
	"execlog":                 {"planparse", "internal/record", "internal/fsutil"},
	"gitops":                  {},
	"internal/record":         {},
	"internal/proc":           {},
	"internal/fsutil":         {},
	"internal/linediff":       {},
	"internal/prompt":         {},
	"internal/secretscan":     {},
	"internal/textsafe":       {},
	"internal/suggest":        {},
	"internal/sandbox":        {},
	"internal/testreport":     {},
	"internal/advsuite":       {},
}

// never are the arrows that must not appear even indirectly: what a
// package reaches through its whole dependency graph.
var never = map[string][]string{
	// Parsing knows no repository and no run; a gate is a command; the
	// loop, not the log, commits; git knows nothing of planx.
	"planparse":       {"gitops", "internal/run/executor", "internal/review", "internal/approval", "internal/risk", "internal/agent", "execlog", "gates"},
	"gates":           {"gitops", "internal/run/executor", "internal/review", "internal/approval", "internal/agent", "execlog"},
	"execlog":         {"gitops", "internal/run/executor", "internal/review", "internal/approval", "internal/risk", "internal/agent", "gates"},
	"gitops":          {"internal/run/executor", "internal/review", "internal/approval", "internal/risk", "internal/agent", "execlog", "gates", "planparse", "internal/record"},
	"internal/record": {"internal/run/executor", "internal/review", "gitops", "execlog", "planparse", "gates"},
	// The judge's checks are pure: bytes and paths in, findings out; no
	// repository, no process.
	"internal/judge": {"gitops", "internal/run/executor", "internal/review", "internal/approval", "internal/risk", "internal/agent", "execlog", "gates", "internal/proc", "internal/sandbox"},
	// Output reports; it runs nothing and commits nothing.
	"internal/progress": {"internal/run/executor", "internal/review", "internal/approval", "internal/risk", "internal/agent", "execlog", "internal/sandbox"},
	// A failure is words and output; it knows no run, no repository.
	"internal/outcome": {"gitops", "internal/run/executor", "internal/review", "internal/approval", "internal/risk", "internal/agent", "execlog", "gates", "planparse", "internal/progress"},
	// The checks of a task's work know no run: no executor, no gate run,
	// no output, no process of their own.
	"internal/run/verify": {"internal/run/executor", "internal/review", "internal/approval", "internal/risk", "internal/agent", "gates", "internal/progress", "internal/proc", "internal/sandbox", "internal/command"},
	// The verify side of a task is given its place, rules and seams: it
	// knows no runner and runs no task, agent or wave.
	"internal/run/checks": {"internal/run/executor", "internal/review", "internal/approval", "internal/risk", "internal/agent", "internal/run/execute", "internal/run/wave", "internal/sandbox", "internal/command"},
	// A gate run is given what it needs: it knows no runner, no review
	// and no agent.
	"internal/run/gaterun": {"internal/run/executor", "internal/review", "internal/approval", "internal/risk", "internal/agent", "internal/command"},
	// A task's gates are given the run's values and seams: they know no
	// runner, run no executor and judge no diff (verify's).
	"internal/run/taskgate": {"internal/run/executor", "internal/review", "internal/approval", "internal/risk", "internal/agent", "internal/command", "internal/run/execute", "internal/run/verify", "internal/run/checks", "internal/sandbox"},
	// The records are written by the loop; they run nothing.
	"internal/ledger": {"internal/run/executor", "internal/review", "internal/approval", "internal/risk", "internal/agent", "internal/command", "internal/run/execute", "internal/run/gaterun", "internal/run/verify", "internal/run/wave"},
	// A person's config edit is told from a task's by digests and history:
	// it runs, reports and judges nothing.
	"internal/run/handconfig": {"internal/run/executor", "internal/review", "internal/approval", "internal/risk", "internal/agent", "internal/progress", "internal/command", "internal/run/execute", "internal/run/gaterun", "internal/run/verify", "internal/run/wave", "internal/judge"},
	// The run's state is data and a lock; it runs and reports nothing.
	"internal/run/runstate": {"internal/run/executor", "internal/review", "internal/approval", "internal/risk", "internal/agent", "internal/progress", "internal/sandbox", "internal/run/execute", "internal/run/gaterun", "internal/run/verify", "internal/run/wave"},
	// The plan on disk is bytes and history; it runs nothing.
	"internal/run/planfile": {"internal/run/executor", "internal/review", "internal/approval", "internal/risk", "internal/agent", "gates", "internal/progress", "internal/proc", "internal/sandbox", "internal/run/execute", "internal/run/gaterun", "internal/run/verify", "internal/run/wave"},
	// The snapshots of attempts are records: they run nothing.
	"internal/run/attempt": {"internal/run/executor", "internal/review", "internal/approval", "internal/risk", "internal/agent", "internal/sandbox", "internal/run/execute", "internal/run/gaterun", "internal/run/verify", "internal/run/wave"},
	// Running a task's process knows no run: no verdict, no review, no
	// approval, nothing of the loop that calls it.
	"internal/run/execute": {"internal/run/executor", "internal/review", "internal/approval", "internal/risk", "internal/judge", "internal/command"},
	// An abort is given the stopped run's state: it knows no runner and
	// runs no task, gate or agent.
	"internal/run/rewind": {"internal/run/executor", "internal/review", "internal/command", "internal/approval", "internal/risk", "internal/agent", "internal/run/execute", "internal/run/gaterun", "internal/sandbox"},
	// A wave knows no run: the orchestration calls it, and it writes a
	// task's log entry only through the funcs it is given.
	"internal/run/wave": {"internal/run/executor", "internal/review", "internal/command", "internal/approval", "internal/risk", "internal/agent", "internal/run/gaterun", "internal/run/execute"},
	// What a run executes is decided from the plan and its settings: no
	// repository write, no process, no mechanism of the run.
	"internal/run/runplan": {"internal/run/executor", "internal/review", "internal/sandbox", "internal/command", "internal/run/execute", "internal/run/gaterun", "internal/run/verify", "internal/run/wave"},
	// The start of a run checks and records; it runs no task, gate or
	// agent and knows no runner.
	"internal/run/runstart": {"internal/run/executor", "internal/review", "internal/command", "internal/approval", "internal/risk", "internal/agent", "internal/run/execute", "internal/run/gaterun", "internal/run/wave", "internal/run/rewind", "internal/run/runplan"},
	// Review reads history, not the live run.
	"internal/review": {"internal/run/executor", "internal/agent", "internal/approval", "internal/risk", "execlog"},
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

func isFace(p string) bool { return p == "cmd/planx" || p == "internal/command" }

// TestImportTable checks every direct import against the table, that
// nothing but Face imports the executor or internal/command, and that
// every package is in the table (a new package must be placed in it).
func TestImportTable(t *testing.T) {
	for _, p := range list(t) {
		if isFace(p.path) || p.path == "internal/gittest" || p.path == "internal/archtest" || strings.HasPrefix(p.path, "bench/") {
			continue
		}
		allowed, ok := mayImport[p.path]
		if !ok {
			t.Errorf("%s is not in the import table of docs/architecture.md; place it there and in mayImport", p.path)
			continue
		}
		for _, imp := range p.imports {
			if !slices.Contains(allowed, imp) {
				t.Errorf("%s imports %s: not allowed by docs/architecture.md", p.path, imp)
			}
		}
		for _, d := range p.deps {
			if d == "internal/run/executor" || d == "internal/command" {
				t.Errorf("%s depends on %s: only cmd/planx and internal/command may", p.path, d)
			}
		}
	}
}

// TestNeverArrows checks the never-arrows through the whole dependency
// graph: `go list -deps ./review | grep executor` printing nothing, and
// its kin.
func TestNeverArrows(t *testing.T) {
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
// outside gitops and the test helpers. Comparing a word of a user's step
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
			case "gitops", "internal/gittest", "bench", "memory-bank", ".git":
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
