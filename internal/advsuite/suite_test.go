package advsuite

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestAdversarial runs every case of testdata/agents through planx and
// audits it (see testdata/README.md): the outcome of each must be the one
// testdata/expect.txt records, alone (TestAdversarial/case/<case>) and as
// the last task of a parallel wave (TestAdversarial/wave/<case>, the cases
// of waveCases). PLANX_ADV_UPDATE=1 rewrites expect.txt with today's
// outcomes alone instead; PLANX_ADV_TABLE=<file> also writes the table.
func TestAdversarial(t *testing.T) {
	tl := setup(t)
	cases, err := loadCases(filepath.Join(tl.testdata, "agents"))
	if err != nil {
		t.Fatal(err)
	}
	expectPath := filepath.Join(tl.testdata, "expect.txt")
	s := &suite{tl: tl, update: os.Getenv("PLANX_ADV_UPDATE") != "", slots: make(chan struct{}, 2), // two cases at a time, whatever the machine
		alone: map[string]caseRun{}, inWave: map[string]caseRun{}}
	s.want, err = readExpect(expectPath)
	if err != nil && !(s.update && os.IsNotExist(err)) {
		t.Fatal(err)
	}
	t.Run("case", func(t *testing.T) {
		for _, k := range cases {
			t.Run(k.name, func(t *testing.T) { s.run(t, k, false) })
		}
	})
	t.Run("wave", func(t *testing.T) {
		for _, k := range waveCases(cases) {
			t.Run(k.name, func(t *testing.T) { s.run(t, k, true) })
		}
	})
	table := formatTable(cases, s.want, s.alone, s.inWave)
	t.Log("\n" + table)
	if p := os.Getenv("PLANX_ADV_TABLE"); p != "" {
		if err := os.WriteFile(p, []byte(table), 0o644); err != nil {
			t.Error(err)
		}
	}
	if s.update {
		for name, c := range s.inWave {
			if a, ok := s.alone[name]; ok && !sameVerdict(name, a.outcome, c) {
				t.Errorf("%s in a wave: %s; alone: %s", name, c.outcome, a.outcome)
			}
		}
		if len(s.alone) == len(cases) && !t.Failed() {
			if err := writeExpect(expectPath, cases, outcomes(s.alone)); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	for name := range s.want {
		if !slices.ContainsFunc(cases, func(k *kase) bool { return k.name == name }) {
			t.Errorf("expect.txt names %s, which testdata/agents does not have", name)
		}
	}
}
