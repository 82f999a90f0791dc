package executor

import (
	"os"
	"path/filepath"
	"slices"
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
	before := takeEnvironPrint(path)
	if ch := before.changed(takeEnvironPrint(path)); len(ch) > 0 {
		t.Fatalf("nothing changed, yet: %q", ch)
	}
	write(filepath.Join(home, ".gitconfig"), "[core]\n\thooksPath = /dev/null\n")
	write(filepath.Join(home, ".config", "git", "ignore"), "*.go\n")
	write(filepath.Join(bin, "sh"), "#!/bin/bash\nexit 0\n")
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(bin, "tool"), later, later); err != nil {
		t.Fatal(err)
	}
	got := before.changed(takeEnvironPrint(path))
	for _, want := range []string{
		"new git config " + filepath.Join(home, ".gitconfig"),
		"new git config " + filepath.Join(home, ".config", "git", "ignore"),
		"new PATH " + filepath.Join(bin, "sh"),
		"changed PATH " + filepath.Join(bin, "tool"),
	} {
		if !slices.Contains(got, want) {
			t.Errorf("changed() = %q, missing %q", got, want)
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
