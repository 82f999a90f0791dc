package space

import (
	"os"
	"path/filepath"
	"testing"
)

// A probe that passed is remembered beside the spaces' layers, for the
// next prober over the same place; forgetting (a space whose helper
// failed) removes it.
func TestProbeRemembered(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	tree := filepath.Join(t.TempDir(), "repo")
	if err := os.Mkdir(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	parent, err := StateParent(tree)
	if err != nil {
		t.Fatal(err)
	}
	if parent != filepath.Join(cache, "planx", "spaces") {
		t.Fatalf("state parent %s, want it under XDG_CACHE_HOME %s", parent, cache)
	}
	if probeRemembered(parent) {
		t.Fatal("a probe is remembered before any ran")
	}
	if err := NewProber(tree).Err(); err != nil {
		t.Skipf("no task spaces here: %v", err)
	}
	marks, _ := filepath.Glob(filepath.Join(parent, "probe-*.ok"))
	if len(marks) != 1 || !probeRemembered(parent) {
		t.Fatalf("after a probe that passed: marks %v, want one that is remembered", marks)
	}
	forgetProbes()
	if probeRemembered(parent) {
		t.Fatal("forgetProbes left the mark")
	}
	// Another place is another question.
	if probeRemembered(t.TempDir()) {
		t.Fatal("a probe is remembered for a place it never ran in")
	}
}
