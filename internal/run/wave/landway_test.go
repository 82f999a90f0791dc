package wave

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/outcome"
)

// TestLandingStopsAtAPersonsChange: a person's edit of a.txt, which the
// wave's first task changes, stops the landing as a failure before
// anything moves: the branch, the index and their bytes are as they were,
// and the state records the path for the landing after the stop.
func TestLandingStopsAtAPersonsChange(t *testing.T) {
	t.Parallel()
	l := landingOn(t)
	gittest.WriteFile(t, l.Repo.Root, "a.txt", "the person's\n")
	_, _, err := l.Run(context.Background())
	var f *outcome.Failure
	if !errors.As(err, &f) || !strings.Contains(f.What, "your changes to a.txt") || !strings.Contains(f.Hint, "`planx resume` keeps your version") {
		t.Fatalf("Run = %v, want a failure naming a.txt and resume", err)
	}
	if !slices.Equal(l.State.WaveInTheWay, []string{"a.txt"}) {
		t.Errorf("state's paths in the way = %v, want [a.txt]", l.State.WaveInTheWay)
	}
	if head := gittest.Git(t, l.Repo.Root, "rev-parse", "HEAD"); head != string(l.Base) {
		t.Errorf("HEAD moved to %s", head)
	}
	if b, _ := os.ReadFile(filepath.Join(l.Repo.Root, "a.txt")); string(b) != "the person's\n" {
		t.Errorf("a.txt = %q, want the person's", b)
	}
	if st := gittest.Git(t, l.Repo.Root, "status", "--porcelain"); st != " M a.txt" {
		t.Errorf("status %q, want only the person's edit", st)
	}
}

// TestLandingToldKeepsAndLandsOver: the landing after such a stop keeps
// the person's bytes under a kept ref, says so, and lands over them.
func TestLandingToldKeepsAndLandsOver(t *testing.T) {
	t.Parallel()
	l := landingOn(t)
	l.State.WaveInTheWay = []string{"a.txt"}
	gittest.WriteFile(t, l.Repo.Root, "a.txt", "the person's\n")
	ld, at, err := l.Run(context.Background())
	if err != nil || at != nil || ld.Tip() == "" {
		t.Fatalf("Run: %v at %v", err, at)
	}
	if got := gittest.Git(t, l.Repo.Root, "show", "refs/planx/runs/run1/kept/1:a.txt"); got != "the person's" {
		t.Errorf("kept a.txt = %q", got)
	}
	if b, _ := os.ReadFile(filepath.Join(l.Repo.Root, "a.txt")); string(b) != "one\n" {
		t.Errorf("a.txt = %q, want the wave's", b)
	}
	d := l.Desk.(*desk)
	if len(d.said) != 1 || !strings.Contains(d.said[0], "kept a.txt: changed in your work tree, where wave 2 lands: your bytes are at refs/planx/runs/run1/kept/1") {
		t.Errorf("said %q", d.said)
	}
	if l.State.WaveInTheWay != nil || l.State.Kept != 1 {
		t.Errorf("state: in the way %v, kept %d; want none and 1", l.State.WaveInTheWay, l.State.Kept)
	}
}
