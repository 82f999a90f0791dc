// Package gittest makes hermetic git repositories for tests: no developer
// config, fixed identity and dates, C locale, no colour.
package gittest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Env returns the environment variables that make git hermetic, with home as HOME.
func Env(home string) map[string]string {
	env := fixed()
	env["HOME"] = home
	env["XDG_CONFIG_HOME"] = filepath.Join(home, ".config")
	env["GIT_CONFIG_GLOBAL"] = filepath.Join(home, ".gitconfig")
	return env
}

// fixed are the variables of Env that name no home: identity, dates,
// locale, no system config.
func fixed() map[string]string {
	return map[string]string{
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME":     "Planx Test",
		"GIT_AUTHOR_EMAIL":    "test@planx.invalid",
		"GIT_COMMITTER_NAME":  "Planx Test",
		"GIT_COMMITTER_EMAIL": "test@planx.invalid",
		"GIT_AUTHOR_DATE":     "2026-01-02T03:04:05Z",
		"GIT_COMMITTER_DATE":  "2026-01-02T03:04:05Z",
		"LC_ALL":              "C",
		"NO_COLOR":            "1",
		"TZ":                  "UTC",
		"CI":                  "",
		"GIT_TERMINAL_PROMPT": "0",
	}
}

// Environ is the environment of the git children this package runs: the
// process's, less the variables that pin git to another repository (a
// test may set GIT_DIR for the code under test, never for its fixtures),
// with the hermetic values of Env over it. The home (HOME,
// GIT_CONFIG_GLOBAL) is the process's when Main or Setenv made it
// hermetic, so the helpers and the code under test read the same global
// config; otherwise it is one that does not exist, so no config, ignore
// or attributes file of the person running the tests reaches git.
func Environ() []string {
	if os.Getenv("GIT_CONFIG_GLOBAL") == "" {
		return EnvironHome(filepath.Join(os.TempDir(), "gittest-no-home"))
	}
	return environ(fixed())
}

// EnvironHome is the environment of a child (planx, git) a test starts
// with Env(home) passed to it rather than set in the test's process: the
// process's, less the variables that pin git to another repository, with
// Env(home) over it.
func EnvironHome(home string) []string {
	return environ(Env(home))
}

func environ(over map[string]string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if _, set := over[k]; !set && !pinsRepository(k) {
			env = append(env, kv)
		}
	}
	for k, v := range over {
		env = append(env, k+"="+v)
	}
	return env
}

// pinsRepository reports the variables that make git act on a repository
// other than the one in its directory.
func pinsRepository(key string) bool {
	switch key {
	case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY",
		"GIT_PREFIX", "GIT_CEILING_DIRECTORIES", "GIT_NAMESPACE":
		return true
	}
	return false
}

// Main is a test package's TestMain (gittest.Main(m)) for tests whose code
// runs git with the process's environment, as gitops does: it puts Env,
// with a home of the test binary's own, in the process environment once,
// before any test runs, and never changes it after. Its tests need no
// Setenv and may call t.Parallel (t.Setenv forbids it); a test that needs
// an environment of its own (a global config written in HOME, a variable
// the code under test must ignore) still calls Setenv and runs alone.
func Main(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	home, err := os.MkdirTemp("", "gittest-home-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "gittest:", err)
		return 1
	}
	defer os.RemoveAll(home)
	for k, v := range Env(home) {
		if err := os.Setenv(k, v); err != nil {
			fmt.Fprintln(os.Stderr, "gittest:", err)
			return 1
		}
	}
	return m.Run()
}

// Setenv applies Env to the test's process environment (restored after the test).
// Tests that call it cannot run in parallel; see Main.
func Setenv(t testing.TB) string {
	t.Helper()
	home := t.TempDir()
	for k, v := range Env(home) {
		t.Setenv(k, v)
	}
	return home
}

// Init creates a repository in a new temp dir on branch main and returns its path.
func Init(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	Git(t, dir, "init", "-q", "-b", "main")
	return dir
}

// Git runs git in dir and returns its trimmed stdout; it fails the test on error.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = Environ()
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return strings.TrimRight(string(out), "\n")
}

// WriteFile writes content to dir/name, creating parent directories.
func WriteFile(t testing.TB, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// WriteFileMode is WriteFile with an explicit permission mode (0o755 makes an
// executable file; the mode is set even if the file existed).
func WriteFileMode(t testing.TB, dir, name, content string, mode os.FileMode) {
	t.Helper()
	WriteFile(t, dir, name, content)
	if err := os.Chmod(filepath.Join(dir, filepath.FromSlash(name)), mode); err != nil {
		t.Fatal(err)
	}
}

// Commit stages everything in dir and commits it with msg, returning the new
// HEAD id. Hooks are skipped so a test's own hooks do not interfere with setup.
func Commit(t testing.TB, dir, msg string) string {
	t.Helper()
	Git(t, dir, "add", "-A")
	Git(t, dir, "commit", "-q", "--no-verify", "--allow-empty", "-m", msg)
	return Git(t, dir, "rev-parse", "HEAD")
}

// GitInput runs git in dir with stdin and returns its stdout untrimmed; it
// fails the test on error.
func GitInput(t testing.TB, dir, stdin string, args ...string) string {
	t.Helper()
	out, err := TryGit(dir, stdin, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TryGit runs git in dir with stdin and returns its untrimmed stdout; the
// error, for a command expected to fail (a merge that conflicts), carries
// stderr.
func TryGit(dir, stdin string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = Environ()
	cmd.Stdin = strings.NewReader(stdin)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("git %s: %w\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out), nil
}

// Worktrees lists the work trees git has registered for the repository
// at dir, the main one first.
func Worktrees(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(Git(t, dir, "worktree", "list", "--porcelain"), "\n") {
		if p, ok := strings.CutPrefix(l, "worktree "); ok {
			out = append(out, p)
		}
	}
	return out
}
