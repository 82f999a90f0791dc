package handconfig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/planparse"
)

// TestRepin checks that --repin takes only the person's edit: with the
// file as pinned there is nothing to re-pin, a change the state does not
// remember as theirs is refused, and their edit becomes the new pin with
// the identity kept and the log's wording naming the gates.
func TestRepin(t *testing.T) {
	t.Parallel()
	const pinnedYAML = "gates:\n  - name: test\n    command: go test ./...\n"
	dir := t.TempDir()
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, gates.ConfigFile), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(pinnedYAML)
	cfg, err := gates.LoadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := planparse.Parse("tasks.md", []byte("# Plan\n\n- [ ] 1. Task\n"), planparse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pinned := &runstate.Pinned{Config: cfg, Gates: cfg.Gates, Identity: [2]string{"A", "a@example.com"}}
	st := &runstate.State{Pinned: pinned}

	j, what, err := Repin(dir, st, pinned, plan, nil)
	if err != nil || j != nil || !strings.Contains(what, "nothing to re-pin") {
		t.Fatalf("unchanged file: pin %v, %q, %v; want nothing to re-pin", j, what, err)
	}

	write(strings.Replace(pinnedYAML, "./...", "./pkg/...", 1))
	if _, _, err := Repin(dir, st, pinned, plan, nil); !errors.Is(err, gitops.ErrRepoState) {
		t.Fatalf("a change not remembered as the person's: %v, want ErrRepoState", err)
	}

	if st.HandConfig, err = Digest(dir); err != nil {
		t.Fatal(err)
	}
	j, what, err = Repin(dir, st, pinned, plan, nil)
	if err != nil || j == nil {
		t.Fatalf("the person's edit: pin %v, %v", j, err)
	}
	if len(j.Gates) != 1 || j.Gates[0].Command != "go test ./pkg/..." || j.Identity != pinned.Identity {
		t.Errorf("new pin %+v: want the edited gate and the pinned identity", j)
	}
	if pinned.Gates[0].Command != "go test ./..." {
		t.Error("the old pin was changed in place")
	}
	if want := "re-pinned from .planx.yaml as edited while the run was stopped: test: go test ./pkg/..."; !strings.Contains(what, want) {
		t.Errorf("what %q, want it to contain %q", what, want)
	}
}
