package command

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/command/scenarios"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestReadmeQuickStart runs README.md's quick start verbatim in a fresh
// repository: the plan block saved where the README says, then every
// `git ...` and `planx ...` command the steps name, in order, each
// expected to succeed. A README edit that breaks the quick start fails here.
func TestReadmeQuickStart(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	plan, cmds := quickStart(t, string(readme))
	var script strings.Builder
	for _, c := range cmds {
		script.WriteString("exec " + c + "\n")
	}
	// What the last steps promise: the task commit with its gate, the run listed.
	script.WriteString("exec git log -1 --format=%B\n" +
		"stdout '^T001: Write the greeting script$'\n" +
		"stdout '^Planx-Gate: test=pass'\n" +
		"exec git status --porcelain\n! stdout .\n" +
		"exec sh greet.sh\nstdout '^Hello, World!$'\n" +
		"-- memory-bank/plan/x.md --\n" + plan)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "quickstart.txtar"), []byte(script.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("script:\n%s", script.String())
	testscript.Run(t, scenarios.Params(dir, nil, nil))
}

// quickStart returns the plan block of README.md's "Quick start" section
// and the git and planx commands it names in code spans, in order.
func quickStart(t *testing.T, readme string) (string, []string) {
	t.Helper()
	_, sec, ok := strings.Cut(readme, "\n## Quick start\n")
	if !ok {
		t.Fatal("README.md has no Quick start section")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	_, block, ok := strings.Cut(sec, "   ````markdown\n")
	if !ok {
		t.Fatal("the Quick start has no ````markdown plan block")
	}
	block, _, _ = strings.Cut(block, "   ````\n")
	var plan strings.Builder
	for _, l := range strings.SplitAfter(block, "\n") {
		plan.WriteString(strings.TrimPrefix(l, "   "))
	}
	if !strings.Contains(sec, "save it as `memory-bank/plan/x.md`") {
		t.Fatal("the Quick start no longer says where to save the plan; update this test")
	}
	var cmds []string
	for _, m := range regexp.MustCompile("`((?:git|planx) [^`]+)`").FindAllStringSubmatch(sec, -1) {
		cmds = append(cmds, m[1])
	}
	if len(cmds) < 4 || cmds[0] != "git init" {
		t.Fatalf("the Quick start names too few commands, or does not start with git init: %q", cmds)
	}
	return plan.String(), cmds
}
