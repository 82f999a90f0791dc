package advsuite

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGroups checks that every language of testdata/agents (and of the
// lang table) is in exactly one group, so that no case goes unrun or runs
// twice, and that each group's package runs it: a _test.go file of
// internal/advsuite/<group> calls Adversarial with the group's name.
func TestGroups(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "agents", "*.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no testdata/agents/*.sh")
	}
	var names []string
	for _, p := range paths {
		names = append(names, strings.TrimSuffix(filepath.Base(p), ".sh"))
	}
	for _, problem := range checkGroups(groups, langs, names) {
		t.Error(problem)
	}
	for _, g := range groups {
		call := fmt.Sprintf("advsuite.Adversarial(t, %q,", g.name)
		tests, _ := filepath.Glob(filepath.Join(g.name, "*_test.go"))
		if !slices.ContainsFunc(tests, func(p string) bool {
			b, err := os.ReadFile(p)
			return err == nil && strings.Contains(string(b), call)
		}) {
			t.Errorf("no _test.go file of internal/advsuite/%s calls %s …): the group's cases would not run", g.name, call)
		}
	}
}

// TestGroupsCatches checks checkGroups itself: a language in no group, one
// in two groups, a group naming no language, a case of no language.
func TestGroupsCatches(t *testing.T) {
	ls := []*lang{{name: "go", prefix: "go_"}, {name: "python", prefix: "py_"}, {name: "make", prefix: "mk_"}}
	names := []string{"go_a", "py_b", "mk_c", "zz_d"}
	gs := []group{{name: "one", langs: []string{"go", "python"}}, {name: "two", langs: []string{"python", "cobol"}}}
	got := strings.Join(checkGroups(gs, ls, names), "\n")
	for _, want := range []string{
		"the language make (mk_) is in no group",
		"the language python (py_) is in 2 groups: one two",
		"the group two names cobol, no language of the lang table",
		"zz_d (testdata/agents) starts with no language's prefix",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("checkGroups did not say %q; it said:\n%s", want, got)
		}
	}
	if problems := checkGroups([]group{{name: "all", langs: []string{"go", "python", "make"}}}, ls, names[:3]); len(problems) > 0 {
		t.Errorf("checkGroups on sound groups: %v", problems)
	}
}

// checkGroups says what is wrong with gs for the languages ls and the
// cases named names: a language of a case or of ls in no group or in
// several, a group language ls lacks, a case of no language, two groups
// of one name.
func checkGroups(gs []group, ls []*lang, names []string) []string {
	var problems []string
	in := func(l *lang) []string {
		var of []string
		for _, g := range gs {
			if slices.Contains(g.langs, l.name) {
				of = append(of, g.name)
			}
		}
		return of
	}
	for _, l := range ls {
		switch of := in(l); len(of) {
		case 0:
			problems = append(problems, fmt.Sprintf("the language %s (%s) is in no group: add it to one of groups (group.go)", l.name, l.prefix))
		case 1:
		default:
			problems = append(problems, fmt.Sprintf("the language %s (%s) is in %d groups: %s", l.name, l.prefix, len(of), strings.Join(of, " ")))
		}
	}
	for _, name := range names {
		if !slices.ContainsFunc(ls, func(l *lang) bool { return strings.HasPrefix(name, l.prefix) }) {
			problems = append(problems, fmt.Sprintf("%s (testdata/agents) starts with no language's prefix", name))
		}
	}
	var seen []string
	for _, g := range gs {
		if slices.Contains(seen, g.name) {
			problems = append(problems, fmt.Sprintf("two groups are named %s", g.name))
		}
		seen = append(seen, g.name)
		for _, name := range g.langs {
			if !slices.ContainsFunc(ls, func(l *lang) bool { return l.name == name }) {
				problems = append(problems, fmt.Sprintf("the group %s names %s, no language of the lang table", g.name, name))
			}
		}
	}
	return problems
}
