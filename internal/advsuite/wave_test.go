package advsuite

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestWaveCases checks that the wave mode's default cases name cases that
// exist and cover every class in every language the suite has.
func TestWaveCases(t *testing.T) {
	cases, err := loadCases(filepath.Join("testdata", "agents"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range waveCheats() {
		if !slices.ContainsFunc(cases, func(k *kase) bool { return k.name == name && k.cheat() }) {
			t.Errorf("waveCheats names %s, which is no cheat of testdata/agents", name)
		}
	}
	subset := waveCases(cases)
	for _, k := range cases {
		if !slices.ContainsFunc(subset, func(w *kase) bool { return w.class == k.class && w.lang == k.lang }) {
			t.Errorf("no case of class %s in %s runs in a wave (%s is one): add one to waveCheats", k.class, k.lang.name, k.name)
		}
		if !k.cheat() && !slices.Contains(subset, k) {
			t.Errorf("the honest control %s does not run in a wave", k.name)
		}
	}
}
