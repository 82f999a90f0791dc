package handconfig

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/run/runstate"
)

func TestConfigNotice(t *testing.T) {
	t.Parallel()
	const pinned = "gates:\n  - name: test\n    command: go test ./...\nstep_timeout: 5m\n"
	dir := t.TempDir()
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, gates.ConfigFile), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(pinned)
	cfg, err := gates.LoadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	j := &runstate.Pinned{Config: cfg}
	for _, tc := range []struct {
		name, yaml string
		hand       bool
		want       string // "" for no notice
	}{
		{"same", pinned, true, ""},
		{"only a comment", "# why\n" + pinned, true, ""},
		{"gate changed by hand", strings.Replace(pinned, "./...", "./pkg/...", 1), true,
			".planx.yaml differs from the configuration this run started with; the run keeps the gates and settings it started with (your edit is left uncommitted: no task commit takes it). To use the edited ones: `planx abort` (which keeps your .planx.yaml), then run the plan again; or `planx resume --repin`"},
		{"timeout changed, not by hand", strings.Replace(pinned, "5m", "1m", 1), false,
			".planx.yaml differs from the configuration this run started with; the run keeps the gates and settings it started with. To use the edited ones: `planx abort` (which keeps your .planx.yaml), then run the plan again"},
		{"broken", "gates: [", true, ".planx.yaml no longer loads ("},
	} {
		write(tc.yaml)
		got := Notice(dir, j, tc.hand)
		if tc.want == "" && got != "" || tc.want != "" && !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: Notice = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := Notice(dir, nil, true); got != "" {
		t.Errorf("a run that pinned no judge: Notice = %q, want none", got)
	}
}

// A person's edits after a stop are counted from the tree at the stop, or
// from planx's last commit when no attempt was in flight; after a crash
// (an attempt without a recorded stop) they cannot be told apart.
func TestStopTree(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		pre, stop string
		want      string
	}{
		{"stopped attempt", "pre", "stop", "stop"},
		{"between tasks", "", "", "head"},
		{"crash", "pre", "", ""},
	} {
		st := &runstate.State{AttemptPre: gitops.SHA(tc.pre), AttemptStop: gitops.SHA(tc.stop)}
		if got := StopTree(st, "head"); string(got) != tc.want {
			t.Errorf("%s: StopTree = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// An edit of .planx.yaml made while the run was stopped is remembered as
// the person's and left out of staging while the file holds it; a task's
// change on top of it is the task's again. No edit: nothing remembered.
func TestRememberHoldsUnstaged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, gates.ConfigFile, "step_timeout: 5m\n")
	head := gitops.SHA(gittest.Commit(t, dir, "base"))
	repo, err := gitops.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	st := &runstate.State{}
	if err := Remember(ctx, repo, st, head); err != nil || st.HandConfig != "" || Holds(dir, st) || Unstaged(dir, st) != nil {
		t.Fatalf("no edit: err %v, remembered %q", err, st.HandConfig)
	}
	gittest.WriteFile(t, dir, gates.ConfigFile, "step_timeout: 9m\n")
	if edited, err := EditedSinceStop(ctx, repo, st, head); err != nil || !edited {
		t.Fatalf("edit not seen: %v, %v", edited, err)
	}
	if err := Remember(ctx, repo, st, head); err != nil || !strings.HasPrefix(st.HandConfig, "sha256:") {
		t.Fatalf("edit not remembered: err %v, digest %q", err, st.HandConfig)
	}
	if !Holds(dir, st) || !slices.Equal(Unstaged(dir, st), []string{gates.ConfigFile}) {
		t.Errorf("the person's edit is staged: holds %v, unstaged %v", Holds(dir, st), Unstaged(dir, st))
	}
	gittest.WriteFile(t, dir, gates.ConfigFile, "step_timeout: 1s\n")
	if Holds(dir, st) || Unstaged(dir, st) != nil {
		t.Error("a change on top of the person's edit is left alone")
	}
	if err := os.Remove(filepath.Join(dir, gates.ConfigFile)); err != nil {
		t.Fatal(err)
	}
	if d, err := Digest(dir); err != nil || d != goneDigest {
		t.Errorf("digest of a deleted file %q, %v", d, err)
	}
}
