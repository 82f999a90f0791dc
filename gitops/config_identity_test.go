package gitops

import (
	"context"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// TestIdentity: one git config read gives what git config --get gives for
// each key, the last of several values included, and "" when unset.
func TestIdentity(t *testing.T) {
	ctx := context.Background()
	gittest.Setenv(t)
	dir := gittest.Init(t)
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "config", "--add", "user.name", "First Name")
	gittest.Git(t, dir, "config", "--add", "user.name", "Last Name")
	gittest.Git(t, dir, "config", "user.email", "me@example.invalid")
	name, email := r.Config().Identity(ctx)
	for key, got := range map[string]string{"user.name": name, "user.email": email} {
		if want := strings.TrimSpace(gittest.Git(t, dir, "config", "--get", key)); got != want {
			t.Errorf("Identity %s = %q, git config --get says %q", key, got, want)
		}
	}
	empty := t.TempDir()
	gittest.Git(t, empty, "init", "-q")
	e, err := Open(ctx, empty)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	if n, m := e.Config().Identity(ctx); n != "" || m != "" {
		t.Errorf("Identity with nothing set = %q, %q", n, m)
	}
}
