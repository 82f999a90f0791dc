package gates

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadConfigHiddenTests(t *testing.T) {
	c, err := LoadConfig(writeConfig(t, "hidden_tests: /srv/hidden\n"))
	if err != nil || c.HiddenTests != "/srv/hidden" {
		t.Errorf("hidden_tests: %q, %v", c.HiddenTests, err)
	}
	if _, err := LoadConfig(writeConfig(t, "hidden_tests: tests/hidden\n")); err == nil || !strings.Contains(err.Error(), `.planx.yaml:1: hidden_tests path "tests/hidden" is relative`) {
		t.Errorf("a relative hidden_tests: %v", err)
	}
	c, err = LoadConfig(writeConfig(t, "hidden_tests:\n  repo: ~/hidden.git\n  ref: tests\n"))
	if err != nil || c.HiddenTests != "~/hidden.git" || c.HiddenRef != "tests" {
		t.Errorf("hidden_tests from a ref: %q %q, %v", c.HiddenTests, c.HiddenRef, err)
	}
	for text, want := range map[string]string{
		"hidden_tests:\n  repo: /srv/h.git\n":              ".planx.yaml:2: hidden_tests needs both repo and ref",
		"hidden_tests:\n  repo: h.git\n  ref: tests\n":     `.planx.yaml:2: hidden_tests path "h.git" is relative`,
		"hidden_tests:\n  repo: /h.git\n  branch: tests\n": `.planx.yaml:3: unknown hidden_tests key "branch"`,
	} {
		if _, err := LoadConfig(writeConfig(t, text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}

func TestHiddenDir(t *testing.T) {
	dir := t.TempDir()
	repo, hidden := filepath.Join(dir, "repo"), filepath.Join(dir, "hidden")
	for _, d := range []string{filepath.Join(repo, ".git"), filepath.Join(repo, "inside"), hidden} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := (Config{HiddenTests: hidden}).HiddenDir(repo, filepath.Join(repo, ".git")); err != nil || !strings.HasSuffix(got, "/hidden") {
		t.Errorf("HiddenDir = %q, %v", got, err)
	}
	if got, err := (Config{}).HiddenDir(repo, filepath.Join(repo, ".git")); got != "" || err != nil {
		t.Errorf("no hidden tests: %q, %v", got, err)
	}
	for p, want := range map[string]string{
		filepath.Join(repo, "inside"): "is inside the repository or holds it",
		dir:                           "is inside the repository or holds it",
		filepath.Join(dir, "none"):    "no such file",
	} {
		if _, err := (Config{HiddenTests: p}).HiddenDir(repo, filepath.Join(repo, ".git")); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("HiddenDir(%s): %v, want %q", p, err, want)
		}
	}
}
