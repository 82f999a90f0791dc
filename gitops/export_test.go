package gitops

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// ExportTree writes a ref's files, from a work tree or a bare clone,
// without checking anything out there.
func TestExportTree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "calc_hidden_test.go", "package calc\n")
	gittest.WriteFile(t, dir, "tests/test_hidden.py", "import calc\n")
	gittest.Commit(t, dir, "hidden")
	gittest.Git(t, dir, "branch", "tests")
	gittest.WriteFile(t, dir, "later.txt", "not on tests\n")
	gittest.Commit(t, dir, "later")
	bare := filepath.Join(t.TempDir(), "hidden.git")
	gittest.Git(t, dir, "clone", "-q", "--bare", dir, bare)
	for _, src := range []string{dir, bare} {
		dst := filepath.Join(t.TempDir(), "out")
		files, err := ExportTree(ctx, src, "tests", dst)
		if err != nil || !slices.Equal(files, []string{"calc_hidden_test.go", "tests/test_hidden.py"}) {
			t.Fatalf("%s: %q, %v", src, files, err)
		}
		if b, err := os.ReadFile(filepath.Join(dst, "tests", "test_hidden.py")); err != nil || string(b) != "import calc\n" {
			t.Errorf("%s: the exported file: %q, %v", src, b, err)
		}
	}
	if _, err := ExportTree(ctx, dir, "no-such-ref", t.TempDir()); err == nil {
		t.Errorf("a ref that does not exist was exported")
	}
}
