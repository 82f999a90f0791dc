package verify

import (
	"context"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/planparse"
)

// workIn commits files as the tree at a task's start and returns the
// work of a task in that repository, with its warnings and notes kept.
func workIn(t *testing.T, files map[string]string) (Work, *[]string) {
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
	var said []string
	return Work{Repo: repo, Root: dir, Base: base, Task: &planparse.Task{ID: "T001"}, Kind: "agent",
		Warn: func(id planparse.TaskID, msg string) { said = append(said, "warn "+string(id)+": "+msg) },
		Note: func(id planparse.TaskID, msg, res string) {
			said = append(said, "note "+string(id)+": "+msg+" ("+res+")")
		},
	}, &said
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
	return Protect{
		Why: func(p string) string {
			switch {
			case p == "plan.md":
				return "the plan"
			case strings.HasSuffix(p, "_test.go"):
				return "a test file"
			}
			return ""
		},
		Unchanged: func(context.Context, string) bool { return false },
		Vendored:  func(context.Context, string) bool { return false },
	}
}

func TestJudge(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w, said := workIn(t, map[string]string{"a_test.go": "package a\n\nfunc TestA(t *testing.T) {}\n", "b_test.go": "package a\n", "plan.md": "- [ ] T001\n"})
	gittest.WriteFile(t, w.Root, "a_test.go", "package a\n\nfunc TestA(t *testing.T) { t.Skip() }\n")
	gittest.WriteFile(t, w.Root, "new_test.go", "package a\n")
	gittest.WriteFile(t, w.Root, "main_test.go", "package a\n")
	w.Files = []string{"a_test.go", "main_test.go", "new_test.go"}
	// New test files add to the judge, whatever they hold: the judge's
	// runs decide whether one took the others over.
	failureSays(t, w.Judge(ctx, rules()), "the task weakened the judge: modified a_test.go (a test file)")

	// A shell task is the user's own: warned, not failed.
	w.Kind = "shell"
	if err := w.Judge(ctx, rules()); err != nil || len(*said) != 1 || !strings.HasPrefix((*said)[0], "warn T001: the task weakened the judge") {
		t.Errorf("shell task: err %v, said %q", err, *said)
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
	r := rules()
	var asked string
	r.Ask = func(q string) bool { asked = q; return true }
	if err := w.Judge(ctx, r); err != nil || !strings.Contains(asked, "T001 changed plan.md (the plan), which it declares") {
		t.Errorf("asked %q: %v", asked, err)
	}
	r.Ask, r.Yes = nil, true
	if err := w.Judge(ctx, r); err != nil {
		t.Errorf("--yes: %v", err)
	}

	// A test file only reformatted is the same test: noted in the log.
	*said = nil
	w.Task.Files = nil
	gittest.WriteFile(t, w.Root, "b_test.go", "package a\n\n")
	w.Files = []string{"b_test.go"}
	if err := w.Judge(ctx, rules()); err != nil || len(*said) != 1 || (*said)[0] != "note T001: reformatted b_test.go, which it does not declare (allowed: formatting only)" {
		t.Errorf("reformatted: err %v, said %q", err, *said)
	}
}

func TestTakeoverAndSecrets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w, said := workIn(t, map[string]string{"a.go": "package a\n"})
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
	if len(*said) != 2 {
		t.Errorf("a manual task's findings: %q, want two warnings", *said)
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
