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
	"review":              {"planparse", "gitops", "gates", "record", "internal/linediff"},
	"executor":            {"planparse", "gitops", "gates", "execlog", "agent", "risk", "approval", "record", "internal/proc", "internal/fsutil", "internal/linediff", "internal/prompt", "internal/secretscan", "internal/textsafe", "internal/sandbox", "internal/testreport", "internal/fault", "judge", "progress", "outcome", "runstate", "attempt", "planfile", "execute", "gaterun", "ledger", "verify", "checks", "wave", "runplan", "rewind", "handconfig", "taskgate", "runstart"},
	"execute":             {"planparse", "gitops", "gates", "execlog", "agent", "outcome", "progress", "record", "internal/proc", "internal/fsutil", "internal/sandbox", "internal/fault"},
	"gaterun":             {"planparse", "gitops", "gates", "execlog", "judge", "progress", "outcome", "runstate", "internal/fsutil", "internal/testreport", "internal/textsafe"},
	"taskgate":            {"execlog", "gaterun", "gates", "gitops", "handconfig", "internal/fault", "ledger", "outcome", "planparse", "progress", "record", "runstate", "wave"},
	"ledger":              {"planparse", "gitops", "gates", "execlog", "progress", "record", "internal/textsafe"},
	"judge":               {},
	"handconfig":          {"gates", "gitops", "planparse", "runstate"},
	"runstart":            {"execlog", "gates", "gitops", "planparse", "record", "runstate", "verify"},
	"runplan":             {"agent", "approval", "gates", "gitops", "internal/linediff", "internal/textsafe", "judge", "planfile", "planparse", "progress", "record", "risk"},
	"checks":              {"gaterun", "gates", "gitops", "internal/textsafe", "judge", "outcome", "planparse", "record", "runstate", "verify"},
	"verify":              {"planparse", "gitops", "execlog", "judge", "outcome", "record", "internal/secretscan", "internal/textsafe"},
	"wave":                {"gitops", "planparse", "progress", "outcome", "execlog", "ledger", "record", "internal/fault"},
	"rewind":              {"execlog", "gates", "gitops", "record", "runstate", "wave"},
	"outcome":             {},
	"attempt":             {"gitops", "planparse", "progress", "record", "runstate", "internal/textsafe"},
	"planfile":            {"gitops", "planparse", "record", "internal/fsutil", "internal/linediff", "internal/textsafe"},
	"runstate":            {"gates", "gitops", "planparse", "execlog", "record", "internal/fsutil"},
	"internal/fault":      {},
	"progress":            {"planparse", "gates", "gitops", "record", "internal/textsafe"},
	"approval":            {"planparse", "gitops", "risk", "internal/textsafe"},
	"risk":                {"planparse", "internal/textsafe"},
	"agent":               {"planparse"},
	"planparse":           {"internal/suggest"},
	"gates":               {"planparse", "internal/proc", "internal/suggest"},
	"execlog":             {"planparse", "record", "internal/fsutil"},
	"gitops":              {},
	"record":              {},
	"internal/proc":       {},
	"internal/fsutil":     {},
	"internal/linediff":   {},
	"internal/prompt":     {},
	"internal/secretscan": {},
	"internal/textsafe":   {},
	"internal/suggest":    {},
	"internal/sandbox":    {},
	"internal/testreport": {},
	"internal/advsuite":   {},
}

// never are the arrows that must not appear even indirectly: what a
// package reaches through its whole dependency graph.
var never = map[string][]string{
	// Parsing knows no repository and no run; a gate is a command; the
	// loop, not the log, commits; git knows nothing of planx.
	"planparse": {"gitops", "executor", "review", "approval", "risk", "agent", "execlog", "gates"},
	"gates":     {"gitops", "executor", "review", "approval", "agent", "execlog"},
	"execlog":   {"gitops", "executor", "review", "approval", "risk", "agent", "gates"},
	"gitops":    {"executor", "review", "approval", "risk", "agent", "execlog", "gates", "planparse", "record"},
	"record":    {"executor", "review", "gitops", "execlog", "planparse", "gates"},
	// The judge's checks are pure: bytes and paths in, findings out; no
	// repository, no process.
	"judge": {"gitops", "executor", "review", "approval", "risk", "agent", "execlog", "gates", "internal/proc", "internal/sandbox"},
	// Output reports; it runs nothing and commits nothing.
	"progress": {"executor", "review", "approval", "risk", "agent", "execlog", "internal/sandbox"},
	// A failure is words and output; it knows no run, no repository.
	"outcome": {"gitops", "executor", "review", "approval", "risk", "agent", "execlog", "gates", "planparse", "progress"},
	// The checks of a task's work know no run: no executor, no gate run,
	// no output, no process of their own.
	"verify": {"executor", "review", "approval", "risk", "agent", "gates", "progress", "internal/proc", "internal/sandbox", "internal/command"},
	// The verify side of a task is given its place, rules and seams: it
	// knows no runner and runs no task, agent or wave.
	"checks": {"executor", "review", "approval", "risk", "agent", "execute", "wave", "internal/sandbox", "internal/command"},
	// A gate run is given what it needs: it knows no runner, no review
	// and no agent.
	"gaterun": {"executor", "review", "approval", "risk", "agent", "internal/command"},
	// A task's gates are given the run's values and seams: they know no
	// runner, run no executor and judge no diff (verify's).
	"taskgate": {"executor", "review", "approval", "risk", "agent", "internal/command", "execute", "verify", "checks", "internal/sandbox"},
	// The records are written by the loop; they run nothing.
	"ledger": {"executor", "review", "approval", "risk", "agent", "internal/command", "execute", "gaterun", "verify", "wave"},
	// A person's config edit is told from a task's by digests and history:
	// it runs, reports and judges nothing.
	"handconfig": {"executor", "review", "approval", "risk", "agent", "progress", "internal/command", "execute", "gaterun", "verify", "wave", "judge"},
	// The run's state is data and a lock; it runs and reports nothing.
	"runstate": {"executor", "review", "approval", "risk", "agent", "progress", "internal/sandbox", "execute", "gaterun", "verify", "wave"},
	// The plan on disk is bytes and history; it runs nothing.
	"planfile": {"executor", "review", "approval", "risk", "agent", "gates", "progress", "internal/proc", "internal/sandbox", "execute", "gaterun", "verify", "wave"},
	// The snapshots of attempts are records: they run nothing.
	"attempt": {"executor", "review", "approval", "risk", "agent", "internal/sandbox", "execute", "gaterun", "verify", "wave"},
	// Running a task's process knows no run: no verdict, no review, no
	// approval, nothing of the loop that calls it.
	"execute": {"executor", "review", "approval", "risk", "judge", "internal/command"},
	// An abort is given the stopped run's state: it knows no runner and
	// runs no task, gate or agent.
	"rewind": {"executor", "review", "internal/command", "approval", "risk", "agent", "execute", "gaterun", "internal/sandbox"},
	// A wave knows no run: the orchestration calls it, and it writes a
	// task's log entry only through the funcs it is given.
	"wave": {"executor", "review", "internal/command", "approval", "risk", "agent", "gaterun", "execute"},
	// What a run executes is decided from the plan and its settings: no
	// repository write, no process, no mechanism of the run.
	"runplan": {"executor", "review", "internal/sandbox", "internal/command", "execute", "gaterun", "verify", "wave"},
	// The start of a run checks and records; it runs no task, gate or
	// agent and knows no runner.
	"runstart": {"executor", "review", "internal/command", "approval", "risk", "agent", "execute", "gaterun", "wave", "rewind", "runplan"},
	// Review reads history, not the live run.
	"review": {"executor", "agent", "approval", "risk", "execlog"},
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
			if d == "executor" || d == "internal/command" {
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
	cmd := exec.Command("go", "list", "-f", `{{join .Imports " "}}|{{join .Deps " "}}`, module+"judge")
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
