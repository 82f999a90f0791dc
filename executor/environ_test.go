package executor

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestEnvironPrintSeesGlobalConfigAndPath(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	bin := filepath.Join(home, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(bin, "tool"), "#!/bin/sh\n")
	path := bin + string(os.PathListSeparator) + "relative/dir"
	repo := filepath.Join(home, "src", "repo")
	gateDir := filepath.Join(repo, ".git", "planx", "run1", "gates")
	before := takeEnvironPrint(path, repo, gateDir)
	if ch := before.changed(takeEnvironPrint(path, repo, gateDir)); len(ch) > 0 {
		t.Fatalf("nothing changed, yet: %q", ch)
	}
	write(filepath.Join(home, ".gitconfig"), "[core]\n\thooksPath = /dev/null\n")
	write(filepath.Join(home, ".config", "git", "ignore"), "*.go\n")
	write(filepath.Join(bin, "sh"), "#!/bin/bash\nexit 0\n")
	write(filepath.Join(home, "src", "pytest.ini"), "[pytest]\naddopts = --collect-only\n")
	write(filepath.Join(home, ".cargo", "config.toml"), "[target.x86_64-unknown-linux-gnu]\nrunner = \"true\"\n")
	write(filepath.Join(repo, "pytest.ini"), "[pytest]\n") // the repository's own: judged by git
	write(filepath.Join(repo, ".git", "planx", ".cargo", "config.toml"), "[build]\n")
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(bin, "tool"), later, later); err != nil {
		t.Fatal(err)
	}
	got := before.changed(takeEnvironPrint(path, repo, gateDir))
	for _, want := range []string{
		"new git config " + filepath.Join(home, ".gitconfig"),
		"new git config " + filepath.Join(home, ".config", "git", "ignore"),
		"new PATH " + filepath.Join(bin, "sh"),
		"changed PATH " + filepath.Join(bin, "tool"),
		"new test runner config above the repository " + filepath.Join(home, "src", "pytest.ini"),
		"new test runner config above the repository " + filepath.Join(home, ".cargo", "config.toml"),
		"new test runner config above the repository " + filepath.Join(repo, ".git", "planx", ".cargo", "config.toml"),
	} {
		if !slices.Contains(got, want) {
			t.Errorf("changed() = %q, missing %q", got, want)
		}
	}
	for _, c := range got {
		if strings.Contains(c, filepath.Join(repo, "pytest.ini")) {
			t.Errorf("changed() = %q: the repository's own file is git's to judge", got)
		}
	}
}

func TestBuildOutput(t *testing.T) {
	for p, want := range map[string]bool{
		"node_modules/":        true,
		"pkg/__pycache__/":     true,
		"a/b/calc.pyc":         true,
		"target/debug/app":     true,
		"mul.local":            false,
		"src/impl.sh":          false,
		"builder/real_code.go": false,
	} {
		if got := buildOutput(p); got != want {
			t.Errorf("buildOutput(%q) = %v, want %v", p, got, want)
		}
	}
}
