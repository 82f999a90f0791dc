package verify

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/planparse"
)

// book is a hall.Desk that keeps what the checks record and say, and
// answers each question with yes (asked keeps the questions).
type book struct {
	lines []string
	asked []string
	yes   bool
}

func (b *book) Issue(id planparse.TaskID, msg, res string) {
	b.lines = append(b.lines, "issue "+string(id)+": "+msg+" ("+res+")")
}
func (b *book) Say(id planparse.TaskID, msg string) {
	b.lines = append(b.lines, "say "+string(id)+": "+msg)
}
func (b *book) Ask(q string) bool { b.asked = append(b.asked, q); return b.yes }
func (b *book) Save() error       { return nil }
func (b *book) Now() time.Time    { return time.Unix(0, 0) }

// workIn commits files as the tree at a task's start and returns the
// work of a task in that repository, with what its checks record and say
// kept.
func workIn(t *testing.T, files map[string]string) (Work, *book) {
	t.Helper()
	dir := gittest.Init(t)
	for p, c := range files {
		gittest.WriteFile(t, dir, p, c)
	}
	base := gitops.SHA(gittest.Commit(t, dir, "base"))
	repo, err := gitops.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	b := &book{}
	return Work{Repo: repo, Root: dir, Base: base, Task: &planparse.Task{ID: "T001"}, Kind: "agent", Desk: b}, b
}

func failureSays(t *testing.T, err error, want string) {
	t.Helper()
	if f := outcome.As(err); f == nil || !strings.Contains(f.What, want) {
		t.Errorf("err %v, want a failure saying %q", err, want)
	}
}

// rules protect test files and the plan, as the run's rules do, and let
// nothing else change.
func rules() Protect {
	return Protect{Why: map[string]string{"plan.md": "the plan", "a_test.go": "a test file", "b_test.go": "a test file",
		"main_test.go": "a test file", "new_test.go": "a test file"}}
}

func TestJudge(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w, b := workIn(t, map[string]string{"a_test.go": "package a\n\nfunc TestA(t *testing.T) {}\n", "b_test.go": "package a\n", "plan.md": "- [ ] T001\n"})
	gittest.WriteFile(t, w.Root, "a_test.go", "package a\n\nfunc TestA(t *testing.T) { t.Skip() }\n")
	gittest.WriteFile(t, w.Root, "new_test.go", "package a\n")
	gittest.WriteFile(t, w.Root, "main_test.go", "package a\n")
	w.Files = []string{"a_test.go", "main_test.go", "new_test.go"}
	// New test files add to the judge, whatever they hold: the judge's
	// runs decide whether one took the others over.
	failureSays(t, w.Judge(ctx, rules()), "the task weakened the judge: modified a_test.go (a test file)")

	// A shell task is the user's own: warned (recorded and said), not failed.
	w.Kind = "shell"
	if err := w.Judge(ctx, rules()); err != nil || len(b.lines) != 2 || !strings.HasPrefix(b.lines[0], "issue T001: the task weakened the judge") ||
		!strings.HasSuffix(b.lines[0], "(allowed: a shell task is the user's own) ()") || !strings.HasPrefix(b.lines[1], "say T001: the task weakened the judge") {
		t.Errorf("shell task: err %v, lines %q", err, b.lines)
	}

	// Declared: the change is the task. The plan needs the user's yes too.
	w.Kind = "agent"
	w.Task.Files = []planparse.File{{Path: "a_test.go"}, {Path: "main_test.go"}, {Path: "plan.md"}}
	if err := w.Judge(ctx, rules()); err != nil {
		t.Errorf("declared: %v", err)
	}
	gittest.WriteFile(t, w.Root, "plan.md", "- [ ] T001\n- [ ] T002\n")
	w.Files = []string{"plan.md"}
	failureSays(t, w.Judge(ctx, rules()), "modified plan.md (the plan)")
	if len(b.asked) != 1 || !strings.Contains(b.asked[0], "T001 changed plan.md (the plan), which it declares") {
		t.Errorf("asked %q, want the person asked once", b.asked)
	}
	b.yes, b.asked = true, nil
	if err := w.Judge(ctx, rules()); err != nil || len(b.asked) != 1 {
		t.Errorf("the person said yes (asked %q): %v", b.asked, err)
	}
	r := rules()
	b.yes, b.asked, r.Yes = false, nil, true
	if err := w.Judge(ctx, r); err != nil || len(b.asked) != 0 {
		t.Errorf("--yes: asked %q: %v", b.asked, err)
	}

	// A test file only reformatted is the same test: noted in the log.
	b.lines = nil
	w.Task.Files = nil
	gittest.WriteFile(t, w.Root, "b_test.go", "package a\n\n")
	w.Files = []string{"b_test.go"}
	if err := w.Judge(ctx, rules()); err != nil || len(b.lines) != 1 || b.lines[0] != "issue T001: reformatted b_test.go, which it does not declare (allowed: formatting only)" {
		t.Errorf("reformatted: err %v, lines %q", err, b.lines)
	}
}

// A test runner's configuration changed only in what does not decide
// what the runner runs passes; a vendored file passes with its module's
// requirement change in go.mod, not without.
func TestJudgeRunnerConfigAndVendor(t *testing.T) {
	ctx := context.Background()
	w, _ := workIn(t, map[string]string{
		"package.json":       `{"scripts": {"test": "jest"}, "dependencies": {}}` + "\n",
		"go.mod":             "module m\n\ngo 1.22\n\nrequire a.b/c v1.0.0\n",
		"vendor/modules.txt": "# a.b/c v1.0.0\na.b/c\n# a.b/d v1.0.0\na.b/d\n",
		"vendor/a.b/c/c.go":  "package c\n",
		"vendor/a.b/d/d.go":  "package d\n",
	})
	read := "read by gate t's test runner"
	r := Protect{Why: map[string]string{"package.json": read, "vendor/a.b/c/c.go": read, "vendor/a.b/d/d.go": read}}
	gittest.WriteFile(t, w.Root, "package.json", `{"scripts": {"test": "jest"}, "dependencies": {"left-pad": "1"}}`+"\n")
	w.Files = []string{"package.json"}
	if err := w.Judge(ctx, r); err != nil {
		t.Errorf("a new dependency: %v", err)
	}
	gittest.WriteFile(t, w.Root, "package.json", `{"scripts": {"test": "exit 0"}}`+"\n")
	failureSays(t, w.Judge(ctx, r), "modified package.json (read by gate t's test runner)")

	gittest.WriteFile(t, w.Root, "vendor/a.b/c/c.go", "package c // edited\n")
	w.Files = []string{"vendor/a.b/c/c.go"}
	failureSays(t, w.Judge(ctx, r), "modified vendor/a.b/c/c.go")
	gittest.WriteFile(t, w.Root, "go.mod", "module m\n\ngo 1.22\n\nrequire a.b/c v1.1.0\n")
	if err := w.Judge(ctx, r); err != nil {
		t.Errorf("vendored with its requirement changed: %v", err)
	}
	gittest.WriteFile(t, w.Root, "vendor/a.b/d/d.go", "package d // edited\n")
	w.Files = []string{"vendor/a.b/c/c.go", "vendor/a.b/d/d.go"}
	failureSays(t, w.Judge(ctx, r), "the task weakened the judge: modified vendor/a.b/d/d.go")
}

func TestTakeoverAndSecrets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w, b := workIn(t, map[string]string{"a.go": "package a\n"})
	gittest.WriteFile(t, w.Root, "a.go", "package a\n\nimport \"testing\"\n\nfunc Mul(a, b int) int {\n\tif testing.Testing() {\n\t\treturn 12\n\t}\n\treturn a + b\n}\n")
	gittest.WriteFile(t, w.Root, ".env.local", "TOKEN=x\n")
	w.Files = []string{".env.local", "a.go"}
	failureSays(t, w.Takeover(ctx), "code that decides whether the tests run, in a.go")
	failureSays(t, w.Secrets(), "the task's work holds likely secrets: .env.local")
	w.Kind = "manual"
	if err := w.Takeover(ctx); err != nil {
		t.Error(err)
	}
	if err := w.Secrets(); err != nil {
		t.Error(err)
	}
	if len(b.lines) != 4 || !strings.HasPrefix(b.lines[1], "say T001: the task weakened the judge: code that decides") || !strings.HasPrefix(b.lines[3], "say T001: the task's work holds likely secrets") {
		t.Errorf("a manual task's findings: %q, want two warnings, each recorded and said", b.lines)
	}
	w.Kind = "agent"
	w.Task.Files = []planparse.File{{Path: ".env.local"}}
	if err := w.Secrets(); err != nil {
		t.Errorf("declared secret file: %v", err)
	}
}

// A replace ref made during a task fails it and is gone afterwards.
func TestReplace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w, _ := workIn(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	before, err := ReplaceRefs(ctx, w.Repo)
	if err != nil {
		t.Fatal(err)
	}
	if err := Replace(ctx, w.Repo, before); err != nil {
		t.Fatalf("no replace ref: %v", err)
	}
	a := gittest.Git(t, w.Root, "rev-parse", "HEAD:a.txt")
	b := gittest.Git(t, w.Root, "rev-parse", "HEAD:b.txt")
	gittest.Git(t, w.Root, "replace", a, b)
	failureSays(t, Replace(ctx, w.Repo, before), "refs/replace/"+a+": git replace")
	if now, err := ReplaceRefs(ctx, w.Repo); err != nil || len(now) != 0 {
		t.Errorf("replace refs after the check: %v (%v), want none", now, err)
	}
}
