package gaterun

import (
	"slices"
	"testing"
	"time"

	"github.com/planx-dev/planx/gates"
)

func TestInCheckout(t *testing.T) {
	tr := TestRuns{Gates: Options{Home: "/home/u/proj"}}
	dir := "/home/u/proj/.git/planx/slots/s1"
	tests := []struct {
		sub, f, want string
		ok           bool
	}{
		{".", "Makefile", "Makefile", true},
		{".", "mk/../GNUmakefile", "GNUmakefile", true},
		{"lib", "ignore.mk", "lib/ignore.mk", true},
		{"lib", "../mk/x.mk", "mk/x.mk", true},
		{".", "../outside.mk", "", false},
		{".", "/planx-judge/proj/mk/a.mk", "mk/a.mk", true},
		{"lib", "/planx-judge/proj/lib/../mk/a.mk", "mk/a.mk", true},
		{".", "/planx-judge/proj", ".", true},
		{".", dir + "/lib/b.mk", "lib/b.mk", true},
		{".", "/usr/share/make/x.mk", "", false},
		{".", "/planx-judge/projx/a.mk", "", false},
	}
	for _, tt := range tests {
		got, ok := tr.inCheckout(dir, tt.sub, tt.f)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("inCheckout(%q, %q) = %q, %v; want %q, %v", tt.sub, tt.f, got, ok, tt.want, tt.ok)
		}
	}
}

func TestMakeQueries(t *testing.T) {
	qs, ok := makeQueries([]gates.Gate{{Name: "lint", Command: "go vet ./..."}, {Name: "test", Command: "V=1 make -s -C lib test", Timeout: time.Minute}})
	want := []makeQuery{{dir: "lib", gate: gates.Gate{Name: "test-makefiles-1", Command: "V=1 make -p -q -s -C lib test", Timeout: time.Minute}}}
	if !ok || !slices.Equal(qs, want) {
		t.Errorf("makeQueries = %+v, %v; want %+v, true", qs, ok, want)
	}
	if qs, _ := makeQueries([]gates.Gate{{Name: "test", Command: "./ci/test.sh"}}); len(qs) != 0 {
		t.Errorf("makeQueries of a script = %+v, want none", qs)
	}
	for _, cmd := range []string{"make -C $DIR test", "make -C ../up test"} {
		if qs, ok := makeQueries([]gates.Gate{{Name: "test", Command: cmd}}); ok || len(qs) != 1 {
			t.Errorf("makeQueries(%q) = %+v, %v; want one that cannot be asked", cmd, qs, ok)
		}
	}
	if got, want := notCode([]string{"GNUmakefile", "lib.go", ".local/rules", "sub.sh"}), []string{"GNUmakefile", ".local/rules", "sub.sh"}; !slices.Equal(got, want) {
		t.Errorf("notCode = %q, want %q", got, want)
	}
}

func TestNewOf(t *testing.T) {
	got := newOf([]string{"GNUmakefile", "mk/a.mk", "notes.md", "sub.sh"}, []string{"Makefile", "GNUmakefile", "mk/a.mk"}, []string{"mk/a.mk"})
	if want := []string{"GNUmakefile"}; !slices.Equal(got, want) {
		t.Errorf("newOf = %q, want %q", got, want)
	}
}
