package advsuite

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestIssueCoverage checks that the suite covers every class of issue
// 35's Why as its item 8 asks: at least three cheats in at least two
// languages, each beside an honest twin of its language and class.
func TestIssueCoverage(t *testing.T) {
	cases, err := loadCases(filepath.Join("testdata", "agents"))
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*kase{}
	for _, k := range cases {
		byName[k.name] = k
	}
	for n := 1; n < len(issueClasses()); n++ {
		var cheats int
		var langs []string
		for _, k := range cases {
			if k.issue != n || !k.cheat() {
				continue
			}
			cheats++
			if !slices.Contains(langs, k.lang.name) {
				langs = append(langs, k.lang.name)
			}
			tw := byName[k.twin]
			switch {
			case k.twin == "":
				t.Errorf("%s (issue class %d) names no honest twin (twin:)", k.name, n)
			case tw == nil || tw.cheat() || tw.lang != k.lang || tw.issue != n:
				t.Errorf("%s names twin %s, which is no honest case of %s with issue: %d", k.name, k.twin, k.lang.name, n)
			}
		}
		if cheats < 3 || len(langs) < 2 {
			t.Errorf("issue class %d (%s): %d cheats in %v, want at least 3 in at least 2 languages",
				n, issueClasses()[n], cheats, langs)
		}
	}
}

// TestKnownGaps checks that knownGaps names exactly the cases of issue
// 35's classes that expect.txt records as a committed cheat or a refused
// honest agent, with the case's class.
func TestKnownGaps(t *testing.T) {
	cases, err := loadCases(filepath.Join("testdata", "agents"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := readExpect(filepath.Join("testdata", "expect.txt"))
	if err != nil {
		t.Fatal(err)
	}
	gaps := knownGaps()
	for _, k := range cases {
		g, listed := gaps[k.name]
		wrong := want[k.name] == committedCheat || want[k.name] == refusedHonest
		switch {
		case k.issue == 0 && listed:
			t.Errorf("knownGaps names %s, which has no issue: class", k.name)
		case k.issue == 0:
		case wrong && !listed:
			t.Errorf("%s is %s in expect.txt: add it to knownGaps with why and what would close it", k.name, want[k.name])
		case !wrong && listed:
			t.Errorf("knownGaps names %s, which expect.txt says is %s: take it out", k.name, want[k.name])
		case listed && (g.issue != k.issue || g.why == "" || g.closes == ""):
			t.Errorf("knownGaps' %s: issue %d (the case says %d), why %q, closes %q", k.name, g.issue, k.issue, g.why, g.closes)
		}
	}
	for name := range gaps {
		if !slices.ContainsFunc(cases, func(k *kase) bool { return k.name == name }) {
			t.Errorf("knownGaps names %s, which testdata/agents does not have", name)
		}
	}
}
