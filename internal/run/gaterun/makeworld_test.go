package gaterun

import (
	"slices"
	"testing"

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

func TestRunsMakeAndNewOf(t *testing.T) {
	if !runsMake([]gates.Gate{{Name: "lint", Command: "go vet ./..."}, {Name: "test", Command: "V=1 make -s test"}}) {
		t.Error("runsMake: a gate running make is not seen")
	}
	if runsMake([]gates.Gate{{Name: "test", Command: "./ci/test.sh"}}) {
		t.Error("runsMake: a script is taken for make")
	}
	got := newOf([]string{"GNUmakefile", "mk/a.mk", "notes.md", "sub.sh"}, []string{"Makefile", "GNUmakefile", "mk/a.mk"}, []string{"mk/a.mk"})
	if want := []string{"GNUmakefile"}; !slices.Equal(got, want) {
		t.Errorf("newOf = %q, want %q", got, want)
	}
}
