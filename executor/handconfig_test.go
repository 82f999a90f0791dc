package executor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/runstate"
)

func TestConfigNotice(t *testing.T) {
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
		got := configNotice(dir, j, tc.hand)
		if tc.want == "" && got != "" || tc.want != "" && !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: configNotice = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := configNotice(dir, nil, true); got != "" {
		t.Errorf("a run that pinned no judge: configNotice = %q, want none", got)
	}
}

// A person's edits after a stop are counted from the tree at the stop, or
// from planx's last commit when no attempt was in flight; after a crash
// (an attempt without a recorded stop) they cannot be told apart.
func TestStopTree(t *testing.T) {
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
		if got := stopTree(st, "head"); string(got) != tc.want {
			t.Errorf("%s: stopTree = %q, want %q", tc.name, got, tc.want)
		}
	}
}
