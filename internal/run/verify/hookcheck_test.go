package verify

import (
	"context"
	"slices"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// A file of the commit that changed while git commit ran and no longer
// matches the index is a hook's leftover; one rewritten and staged again,
// or not touched, is not.
func TestHookLeftovers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w, _ := workIn(t, map[string]string{"a.go": "package a\n", "b.go": "package b\n", "plan.md": "- [x] T001\n"})
	before := SnapshotCommit(w.Root, []string{"a.go", "b.go"}, []string{"plan.md"})
	if left := before.HookLeftovers(ctx, w.Repo); len(left) != 0 {
		t.Fatalf("nothing changed, leftovers %v", left)
	}
	gittest.WriteFile(t, w.Root, "a.go", "package a // formatted\n")
	gittest.WriteFile(t, w.Root, "plan.md", "- [x] T00!\n") // same size: compared by content
	if left := before.HookLeftovers(ctx, w.Repo); !slices.Equal(left, []string{"a.go", "plan.md"}) {
		t.Errorf("leftovers %v, want a.go and plan.md", left)
	}
}
