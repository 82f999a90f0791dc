package scenarios

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "write the group packages' test files")

// TestEveryScriptRunsOnce: go test ./... runs every scenario exactly once
// (RunPlumbing's second pass aside): each belongs to exactly one group,
// every group has its package under this directory, every package here is
// a group's, and each is groupFile, which runs its own group alone.
func TestEveryScriptRunsOnce(t *testing.T) {
	all, err := filepath.Glob(filepath.Join("..", "testdata", "script", "*.txtar"))
	if err != nil || len(all) < 100 {
		t.Fatalf("found %d scenarios (%v): wrong directory?", len(all), err)
	}
	seen := map[string]int{}
	for _, f := range all {
		g, err := groupOf(Groups(), f)
		if err != nil {
			t.Error(err)
			continue
		}
		seen[g]++
	}
	var names []string
	for _, g := range Groups() {
		if slices.Contains(names, g.Name) {
			t.Errorf("two groups are named %q", g.Name)
		}
		names = append(names, g.Name)
		if seen[g.Name] == 0 {
			t.Errorf("group %q runs no scenario", g.Name)
		}
		for _, p := range g.Prefixes {
			if !slices.ContainsFunc(all, func(f string) bool { return matches(f, p) }) {
				t.Errorf("group %q names prefix %q that no scenario has", g.Name, p)
			}
		}
		checkGroupPackage(t, g.Name)
	}
	dirs, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if d.IsDir() && !slices.Contains(names, d.Name()) {
			t.Errorf("%s is not a group of scenarios.Groups: a scenario package runs only its group's scenarios", d.Name())
		}
	}
}

// checkGroupPackage checks (or with -update writes) that the directory
// name holds groupFile(name) and nothing else.
func checkGroupPackage(t *testing.T, name string) {
	t.Helper()
	path := filepath.Join(name, "scripts_test.go")
	want := groupFile(name)
	if *update {
		if err := os.MkdirAll(name, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != want {
		t.Errorf("%s is not groupFile(%q) (go test ./internal/command/scenarios -run TestEveryScriptRunsOnce -update writes it): %v", path, name, err)
	}
	entries, _ := os.ReadDir(name)
	for _, e := range entries {
		if e.Name() != "scripts_test.go" {
			t.Errorf("%s holds %s: a group package is its one generated file", name, e.Name())
		}
	}
}

// TestGroupOf: a scenario is the group's of the longest prefix that takes
// it; none, or one prefix in two groups, is an error naming it.
func TestGroupOf(t *testing.T) {
	groups := []Group{{"a", []string{"run", "plan", "adv_go"}}, {"b", []string{"log", "plan", "adv"}}}
	for file, want := range map[string]string{
		"run_basic.txtar": "a", "dir/log_x.txtar": "b", "run.txtar": "a", "adv_py.txtar": "b",
		"plan_x.txtar": "error: 2 prefixes", "adv_go_init.txtar": "a",
		"undo_x.txtar": "error: 0 prefixes", "running_x.txtar": "error: 0 prefixes", "adv_gox.txtar": "b",
	} {
		got, err := groupOf(groups, file)
		if err != nil {
			got = "error: " + strings.Fields(strings.SplitN(err.Error(), " is taken by ", 2)[1])[0] + " prefixes"
			if !strings.Contains(err.Error(), file) {
				t.Errorf("groupOf(%s): %v does not name it", file, err)
			}
		}
		if got != want {
			t.Errorf("groupOf(%s) = %q, want %q", file, got, want)
		}
	}
}
