package command

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// The example in memory-bank/plan is what newcomers read: it must be the plan
// the demo really runs.
func TestDemoPlanMatchesExample(t *testing.T) {
	example, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(demoPlanPath)))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(example, demoPlan) {
		t.Fatalf("%s differs from internal/command/demo/plan.md; copy one over the other", demoPlanPath)
	}
}

func TestDemoRunsEndToEnd(t *testing.T) {
	gittest.Setenv(t)
	dir := filepath.Join(t.TempDir(), "demo")
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"planx", "demo", "--dir", dir}, &IO{Out: &out, Err: &errb})
	if code != 0 {
		t.Fatalf("demo exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	got := gittest.Git(t, dir, "log", "--format=%s")
	want := strings.Join([]string{
		"T004: Document the tool",
		"T003: Add a --shout option",
		"T002: Test the greeting",
		"T001: Write the greeting script",
		"rollback: before executing plan greeting-tool",
		"Initial commit: test runner",
	}, "\n")
	if got != want {
		t.Fatalf("git log:\n%s\nwant:\n%s", got, want)
	}
	if st := gittest.Git(t, dir, "status", "--porcelain"); st != "" {
		t.Fatalf("tree not clean after demo:\n%s", st)
	}
	if !strings.Contains(out.String(), "$ git log --oneline") {
		t.Fatalf("demo did not print the history:\n%s", out.String())
	}
	plan := gittest.Git(t, dir, "show", "HEAD:"+demoPlanPath)
	if strings.Count(plan, "### [x] T00") != 4 || strings.Contains(plan, "### [ ]") {
		t.Fatalf("the plan at HEAD is not ticked for all four tasks:\n%s", plan)
	}
	if got := gittest.Git(t, dir, "show", "HEAD:greet.sh"); !strings.Contains(got, "--shout") {
		t.Fatalf("greet.sh at HEAD lacks the T003 change:\n%s", got)
	}
}
