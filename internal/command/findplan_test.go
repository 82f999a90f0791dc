package command

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindPlan(t *testing.T) {
	touch := func(dir string, ps ...string) string {
		for _, p := range ps {
			full := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	// spec-kit: the feature with the highest number, whatever its width
	dir := touch(t.TempDir(), "specs/009-old/tasks.md", "specs/012-new/tasks.md", "specs/0100-newest/tasks.md", "specs/x/plan.md")
	if got, err := findPlan(dir); err != nil || got != filepath.Join(dir, "specs/0100-newest/tasks.md") {
		t.Errorf("spec-kit: %q, %v", got, err)
	}
	// the one plan in memory-bank/plan/ wins
	dir = touch(dir, "memory-bank/plan/x.md")
	if got, err := findPlan(dir); err != nil || got != filepath.Join(dir, "memory-bank/plan/x.md") {
		t.Errorf("memory-bank: %q, %v", got, err)
	}
	// two: a usage error naming them
	touch(dir, "memory-bank/plan/y.md")
	if _, err := findPlan(dir); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "y.md") {
		t.Errorf("two plans: %v", err)
	}
	if _, err := findPlan(t.TempDir()); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "none found") {
		t.Errorf("no plan: %v", err)
	}
}
