package advsuite

import (
	"fmt"
	"slices"
)

// group is one test binary of the suite, internal/advsuite/<name>: the
// cases of its languages, each run alone and (those of waveCases) in a
// wave, in one process, so that a case's run in a wave is compared with
// its run alone in the same run of the suite (Adversarial).
type group struct {
	name  string   // its package's directory under internal/advsuite
	langs []string // the lang.name of each of its languages
}

// groups divide the suite's languages between test binaries, so that none
// runs past the four minutes or so a binary may take in CI's full pass;
// every language is in exactly one (TestGroups). They are balanced by
// measured time: the sum of each language's cases' times, alone and in a
// wave, in a full run of the suite on two cores (November 2026): go 217 s
// and pytest 102 s (gopt, 319 s); javascript 125 s, python 126 s and make
// 33 s (jspymk, 284 s). Two cases run at once in each binary, so each took
// about half its sum.
var groups = []group{
	{name: "gopt", langs: []string{"go", "pytest"}},
	{name: "jspymk", langs: []string{"javascript", "python", "make"}},
}

// groupNamed is the group of that name.
func groupNamed(name string) (group, error) {
	for _, g := range groups {
		if g.name == name {
			return g, nil
		}
	}
	var names []string
	for _, g := range groups {
		names = append(names, g.name)
	}
	return group{}, fmt.Errorf("the adversarial suite has no group %q (groups: %v)", name, names)
}

// cases are the cases of g's languages, in the order of cases.
func (g group) cases(cases []*kase) []*kase {
	var out []*kase
	for _, k := range cases {
		if slices.Contains(g.langs, k.lang.name) {
			out = append(out, k)
		}
	}
	return out
}
