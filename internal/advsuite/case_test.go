package advsuite

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// TestExpectCases checks that expect.txt names no case testdata/agents
// lacks (each group checks the other way, that each case it runs is
// named).
func TestExpectCases(t *testing.T) {
	cases, err := loadCases(filepath.Join("testdata", "agents"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := readExpect(filepath.Join("testdata", "expect.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for name := range want {
		if !slices.ContainsFunc(cases, func(k *kase) bool { return k.name == name }) {
			t.Errorf("expect.txt names %s, which testdata/agents does not have", name)
		}
	}
}

// testCases are made-up cases for the tests of expect.txt's merge.
func testCases(names ...string) []*kase {
	var cases []*kase
	for i, name := range names {
		class := "exit-forced"
		if i%3 == 2 {
			class = honestClass
		}
		cases = append(cases, &kase{name: name, lang: langOf(name), class: class})
	}
	return cases
}

// TestUpdateExpect checks that updating expect.txt with one group's
// outcomes keeps every other case's line as the file has it, drops a
// case that is gone, and makes the file when there is none.
func TestUpdateExpect(t *testing.T) {
	cases := testCases("go_a", "pt_b", "py_c", "js_d", "mk_e", "go_f")
	p := filepath.Join(t.TempDir(), "expect.txt")
	old := map[string]string{"go_a": caught, "pt_b": caught, "py_c": accepted, "js_d": caught, "mk_e": accepted, "go_f": refusedHonest}
	if err := os.WriteFile(p, []byte(formatExpect(cases, old)+"py_gone                      caught\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := updateExpect(p, cases, map[string]string{"go_a": committedCheat, "pt_b": caught, "go_f": accepted}); err != nil {
		t.Fatal(err)
	}
	got, err := readExpect(p)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"go_a": committedCheat, "pt_b": caught, "py_c": accepted, "js_d": caught, "mk_e": accepted, "go_f": accepted}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after updating go_a, pt_b and go_f: %v, want %v", got, want)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); s != formatExpect(cases, want) {
		t.Errorf("expect.txt reads\n%s\nwant\n%s", s, formatExpect(cases, want))
	}

	none := filepath.Join(t.TempDir(), "expect.txt")
	if err := updateExpect(none, cases, map[string]string{"js_d": caught}); err != nil {
		t.Fatal(err)
	}
	if got, err := readExpect(none); err != nil || fmt.Sprint(got) != fmt.Sprint(map[string]string{"js_d": caught}) {
		t.Errorf("updating no file: %v, %v; want js_d caught only", got, err)
	}
	entries, err := os.ReadDir(filepath.Dir(none))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if n := e.Name(); n != "expect.txt" && n != "expect.txt.lock" {
			t.Errorf("updateExpect left %s beside expect.txt", n)
		}
	}
}

// TestUpdateExpectAtOnce checks that updates of expect.txt made at once
// (as two groups' test binaries may) lose none of each other's lines: each
// of many goroutines updates one case; every update must be in the file.
// (flock locks an open file, not a process: two opens in one process
// exclude each other as two processes do.)
func TestUpdateExpectAtOnce(t *testing.T) {
	var names []string
	for i := range 24 {
		names = append(names, fmt.Sprintf("%s%02d", []string{"go_", "py_", "js_"}[i%3], i))
	}
	cases := testCases(names...)
	p := filepath.Join(t.TempDir(), "expect.txt")
	old := map[string]string{}
	for _, name := range names {
		old[name] = caught
	}
	if err := os.WriteFile(p, []byte(formatExpect(cases, old)), 0o644); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, name := range names {
		wg.Go(func() {
			if err := updateExpect(p, cases, map[string]string{name: committedCheat}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	got, err := readExpect(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if got[name] != committedCheat {
			t.Errorf("%s: %q after every case was updated at once, want %s (an update was lost)", name, got[name], committedCheat)
		}
	}
}
