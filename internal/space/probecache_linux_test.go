package space

import (
	"os"
	"path/filepath"
	"testing"
	"time"
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
	// An old build's marks: the one two days old goes when a probe is
	// remembered again, the one an hour old stays.
	stale, recent := filepath.Join(parent, "probe-0000.ok"), filepath.Join(parent, "probe-0001.ok")
	for mark, age := range map[string]time.Duration{stale: 48 * time.Hour, recent: time.Hour} {
		if err := os.WriteFile(mark, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		then := time.Now().Add(-age)
		if err := os.Chtimes(mark, then, then); err != nil {
			t.Fatal(err)
		}
	}
	rememberProbe(parent)
	if _, err := os.Stat(stale); err == nil {
		t.Error("a mark two days old is still there after a probe was remembered")
	}
	if _, err := os.Stat(recent); err != nil {
		t.Errorf("a mark an hour old was removed: %v", err)
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
