package gittest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestEnvironIsHermetic: the helpers' git children are hermetic whatever
// the process environment says: another repository's GIT_DIR, a person's
// identity and a global config in HOME reach none of them.
func TestEnvironIsHermetic(t *testing.T) {
	home := t.TempDir()
	WriteFile(t, home, ".gitconfig", "[user]\n\tname = Developer\n")
	other := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_GLOBAL", "") // restored after the test, and unset for it:
	os.Unsetenv("GIT_CONFIG_GLOBAL")
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("GIT_AUTHOR_NAME", "Someone Else")
	t.Setenv("LC_ALL", "de_DE.UTF-8")

	dir := Init(t)
	WriteFile(t, dir, "a.txt", "a\n")
	Commit(t, dir, "first")
	if _, err := os.Stat(filepath.Join(dir, ".git", "HEAD")); err != nil {
		t.Fatalf("Init made no repository in its directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(other, ".git")); err == nil {
		t.Fatal("GIT_DIR reached a helper's git: the repository went elsewhere")
	}
	if got := Git(t, dir, "log", "-1", "--format=%an <%ae> %ad", "--date=iso-strict"); got != "Planx Test <test@planx.invalid> 2026-01-02T03:04:05+00:00" {
		t.Errorf("author %q: the fixed identity and date did not hold", got)
	}
	if out, err := TryGit(dir, "", "config", "user.name"); err == nil {
		t.Errorf("the global config in HOME was read (user.name %q)", out)
	}
}
