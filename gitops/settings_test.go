package gitops

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// TestSettings checks each value against git's own reading of the same
// config file: git config --type=bool for commit.gpgSign; the core.fsync
// cases are what strace showed git 2.39's update-ref fsync.
func TestSettings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		config  string
		sign    bool
		durable bool
	}{
		{"", false, false},
		{"[commit]\n\tgpgsign\n", true, false},
		{"[commit]\n\tgpgsign =\n", false, false},
		{"[commit]\n\tgpgSign = Yes\n", true, false},
		{"[commit]\n\tgpgsign = 0\n", false, false},
		{"[commit]\n\tgpgsign = 1k\n", true, false},
		{"[commit]\n\tgpgsign = true\n\tgpgsign = off\n", false, false},
		{"[core]\n\tfsync = committed\n", false, true},
		{"[core]\n\tfsync = committed,-reference\n", false, true},
		{"[core]\n\tfsync = -reference\n", false, false},
		{"[core]\n\tfsync = all,none\n", false, true},
		{"[core]\n\tfsync = reference\n", false, true},
		{"[core]\n\tfsync = all\n", false, true},
		{"[core]\n\tfsync = loose-object,index\n", false, false},
		{"[core]\n\tfsync = all\n\tfsync = none\n", false, false},
		{"[user]\n\tname = A\n\temail = a@x\n\tname = B B\n", false, false},
	} {
		dir := gittest.Init(t)
		f, err := os.OpenFile(filepath.Join(dir, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(tc.config); err != nil {
			t.Fatal(err)
		}
		f.Close()
		r, err := Open(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		s, err := r.Config().Settings(ctx)
		if err != nil {
			t.Fatalf("%q: %v", tc.config, err)
		}
		gitSays := strings.TrimSpace(gittest.Git(t, dir, "config", "--type=bool", "--default=false", "commit.gpgsign"))
		if s.Sign != (gitSays == "true") || s.Sign != tc.sign {
			t.Errorf("%q: Sign = %v, git says %s, want %v", tc.config, s.Sign, gitSays, tc.sign)
		}
		if s.Durable != tc.durable {
			t.Errorf("%q: Durable = %v, want %v", tc.config, s.Durable, tc.durable)
		}
		if strings.Contains(tc.config, "name = B B") && (s.Name != "B B" || s.Email != "a@x") {
			t.Errorf("%q: identity %q <%s>, want the last value of each", tc.config, s.Name, s.Email)
		}
	}
	dir := gittest.Init(t)
	gittest.Git(t, dir, "config", "commit.gpgsign", "maybe")
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Config().Settings(ctx); err == nil || !strings.Contains(err.Error(), "commit.gpgsign") {
		t.Errorf("a bad boolean: %v, want an error naming the key", err)
	}
}
