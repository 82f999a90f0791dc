package verify

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// An agent's files ignored by the rules before it are its outputs; those
// only its own new rule ignores are work hidden from the judge, as is an
// edit of the execution log.
func TestHiding(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w, b := workIn(t, map[string]string{".gitignore": "out/\n", "a.go": "package a\n", "log.md": "log\n"})
	watch, err := StartWatch(ctx, w.Repo, "log.md", true)
	if err != nil {
		t.Fatal(err)
	}
	h := Hiding{Log: "log.md", Watch: watch}
	gittest.WriteFile(t, w.Root, "out/app", "binary\n")
	if outs, err := w.Hiding(ctx, h); err != nil || !slices.Equal(outs, []string{"out/"}) {
		t.Fatalf("outputs %v (%v), want out/", outs, err)
	}
	gittest.WriteFile(t, w.Root, ".gitignore", "out/\nsecret.go\n")
	gittest.WriteFile(t, w.Root, "secret.go", "package a\n")
	gittest.WriteFile(t, w.Root, "log.md", "log, edited\n")
	failureSays(t, firstErr(w.Hiding(ctx, h)), "the task hid work from the judge: modified the execution log log.md; created files git ignores by rules the task wrote, which the commit would leave out: secret.go")

	// The user's own steps are warned; without a watch (resume) only git's
	// own records are checked, and for an agent alone.
	w.Kind = "shell"
	if _, err := w.Hiding(ctx, h); err != nil || len(b.lines) != 2 || !strings.Contains(b.lines[0], "modified the execution log") || !strings.HasPrefix(b.lines[1], "say T001: ") {
		t.Errorf("shell task: %v, lines %q", err, b.lines)
	}
	if _, err := w.Hiding(ctx, Hiding{Log: "log.md"}); err != nil || len(b.lines) != 2 {
		t.Errorf("no watch: %v, lines %q", err, b.lines)
	}
}

func firstErr(_ []string, err error) error { return err }
