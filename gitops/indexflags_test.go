package gitops

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// TestHiddenInIndex: the in-process reader of the index's flag bits agrees
// with git ls-files -v on every index version and both hash sizes, and
// leaves to git the layouts it does not read (split index).
func TestHiddenInIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name, format string
		version      int
		split        bool
	}{
		{"v2", "sha1", 2, false}, {"v3", "sha1", 3, false}, {"v4", "sha1", 4, false},
		{"v4-sha256", "sha256", 4, false}, {"v2-sha256", "sha256", 2, false},
		{"split", "sha1", 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			gittest.Git(t, dir, "init", "-q", "--object-format="+tc.format)
			// Names of many lengths (v2/v3 padding, v4 prefix compression).
			for i := range 40 {
				gittest.WriteFile(t, dir, fmt.Sprintf("d%d/%s.txt", i%3, strings.Repeat("n", i)), "x\n")
			}
			gittest.Commit(t, dir, "initial")
			gittest.Git(t, dir, "update-index", "--skip-worktree", "d0/nnn.txt", "d1/n.txt")
			gittest.Git(t, dir, "update-index", "--assume-unchanged", "d2/nn.txt", "d1/nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn.txt")
			gittest.Git(t, dir, "update-index", fmt.Sprintf("--index-version=%d", tc.version))
			if tc.split {
				gittest.Git(t, dir, "update-index", "--split-index")
			}
			r, err := Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			want, err := r.Index().hiddenByGit(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) != 4 {
				t.Fatalf("git lists %q, want 4 hidden entries", want)
			}
			got, err := hiddenInIndex(r.Index().path())
			if tc.split {
				if err == nil {
					t.Fatalf("split index read in-process: %q", got)
				}
			} else if err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("hiddenInIndex = %q, %v; git ls-files -v says %q", got, err, want)
			}
			if all, err := r.Index().HiddenEntries(ctx); err != nil || !reflect.DeepEqual(all, want) {
				t.Errorf("HiddenEntries = %q, %v; want %q", all, err, want)
			}
		})
	}
}
