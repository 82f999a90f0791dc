package execute

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/planx-dev/planx/planparse"
)

// A spec-kit feature directory: its documents beside the tasks file are
// named (a symlink is not: it could reach outside the repository), and
// the requirement the task cites is quoted from spec.md.
func TestSpecContext(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "specs", "001")
	if err := os.MkdirAll(filepath.Join(dir, "contracts"), 0o755); err != nil {
		t.Fatal(err)
	}
	for p, text := range map[string]string{
		"tasks.md":         "- [ ] T001 do it\n",
		"spec.md":          "# Spec\n\n- **FR-001**: System MUST greet.\n",
		"contracts/api.md": "api\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "plan.md")); err != nil {
		t.Fatal(err)
	}
	task := &planparse.Task{ID: "T001", Body: "Implements FR-001."}
	s := SpecContext(root, "specs/001/tasks.md", planparse.FormatSpecKit, task)
	if want := []string{"specs/001/spec.md", "specs/001/contracts/api.md"}; !slices.Equal(s.Files, want) {
		t.Fatalf("files = %q, want %q", s.Files, want)
	}
	if s.Source != "specs/001/spec.md" || len(s.Cited) != 1 || s.Cited[0].Ref != "FR-001" || s.Cited[0].Text == "" {
		t.Fatalf("cited = %+v from %q", s.Cited, s.Source)
	}
	if s := SpecContext(root, "plan.md", planparse.FormatNative, task); len(s.Files) != 0 || len(s.Cited) != 0 {
		t.Fatalf("a native plan has no spec documents: %+v", s)
	}
}
