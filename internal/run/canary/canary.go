package canary

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/judge"
	"github.com/planx-dev/planx/internal/testreport"
)

// Set is the canary tests of one judge run (testreport's canary.go
// says what they prove): written into the judge's checkout just before a
// test gate runs, under names drawn at that moment, and removed when it
// ends. The work tree never holds them, so the judged code cannot know or
// name them in advance.
type Set struct {
	nonce   string
	sources []string            // the task's changed JavaScript sources, which node canaries import
	places  map[string][]string // by gate name: the directories planted, relative to the checkout
	files   []string            // written and not yet removed
	// namesakes are the names of the tests the task must fix (Named):
	// Python canaries that must fail carry them too, so that code keyed
	// on those names to change how they are reported changes its own
	// canaries' reports with them.
	namesakes []string
	fix       map[string][]string          // by gate name: the IDs of the tests the task must fix, which get twins
	twins     map[string][]testreport.Twin // by gate name: the twins planted
	changed   map[string]bool              // the task's changed files, which a twin never copies
	ntwins    int                          // twins numbered so far (testreport.TwinToken)
}

// Named returns c with canaries named as the tests that failed at the
// base in base (their Python method names): the tests a task must fix.
func (c *Set) Named(base map[string]testreport.Report) *Set {
	seen := map[string]bool{}
	var names []string
	c.fix = map[string][]string{}
	for gate, rep := range base {
		for _, t := range rep.Tests {
			if t.Outcome != testreport.Fail {
				continue
			}
			if len(c.fix[gate]) < maxNamesakes {
				c.fix[gate] = append(c.fix[gate], t.ID)
			}
			n := pyName(t.ID)
			if n != "" && !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	slices.Sort(names)
	if len(names) > maxNamesakes {
		names = names[:maxNamesakes]
	}
	c.namesakes = names
	return c
}

// maxNamesakes bounds the namesake canaries of a place.
const maxNamesakes = 50

// pyName is the Python test method name that ends the test ID id
// (module.Class.test_x, file::Class::test_x), or "" when it ends in none.
func pyName(id string) string {
	i := strings.LastIndexAny(id, ".:")
	n := id[i+1:]
	if !strings.HasPrefix(n, "test") || n == "test_Fails1" || n == "test_Passes" {
		return ""
	}
	for _, r := range n {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return ""
		}
	}
	return n
}

// maxCanaryPlaces bounds the directories one gate gets canaries in: past
// it, the first ones in walk order stand for the rest.
const maxCanaryPlaces = 200

// New is the canaries of one judge run of a task whose changed
// files (relative to the repository) are changed.
func New(changed []string) *Set {
	b := make([]byte, 6)
	_, _ = rand.Read(b) // never fails on Linux or macOS (crypto/rand)
	c := &Set{nonce: hex.EncodeToString(b), places: map[string][]string{},
		twins: map[string][]testreport.Twin{}, changed: map[string]bool{}}
	for _, f := range changed {
		c.changed[f] = true
		switch path.Ext(f) {
		case ".js", ".mjs", ".cjs":
			if !judge.IsTestFile(f) {
				c.sources = append(c.sources, f)
			}
		}
	}
	return c
}

// Lang is the language of the canaries a runner of report kind kind
// (testreport's kinds) runs, or "" for a runner planx cannot add a test to
// (a declared JUnit report, declared: any language).
func Lang(kind string, declared bool) string {
	switch kind {
	case testreport.KindGoJSON:
		return "go"
	case testreport.KindUnittest:
		return "python"
	case testreport.KindJUnit:
		if !declared {
			return "python" // pytest, the one JUnit runner planx adjusts
		}
	case testreport.KindTAP:
		return "node"
	}
	return ""
}

// Gate is a test gate as its canaries know it: its name, and the language
// of its runner (Lang).
type Gate struct {
	Name, Lang string
}

// Plant writes the canaries of tg's runner into dir (the checkout the
// gate runs in) and returns how to take them out again. A runner with no
// canaries gets none.
func (c *Set) Plant(dir string, tg Gate) (remove func(), err error) {
	lang := tg.Lang
	if c == nil || lang == "" {
		return func() {}, nil
	}
	places, err := testDirs(dir, lang)
	if err != nil {
		return nil, fmt.Errorf("canaries of gate %s: %w", tg.Name, err)
	}
	first := len(c.files)
	for i, p := range places {
		name, body, err := c.canary(dir, p, lang, i)
		if err != nil {
			c.remove(first)
			return nil, fmt.Errorf("canaries of gate %s: %w", tg.Name, err)
		}
		f := filepath.Join(dir, filepath.FromSlash(p), name)
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			c.remove(first)
			return nil, fmt.Errorf("canaries of gate %s: %w", tg.Name, err)
		}
		c.files = append(c.files, f)
	}
	c.places[tg.Name] = places
	if err := c.plantTwins(dir, tg.Name, lang); err != nil {
		c.remove(first)
		return nil, fmt.Errorf("twins of gate %s: %w", tg.Name, err)
	}
	return func() { c.remove(first) }, nil
}

// remove takes out the files written from index first on, and what a
// Python runner compiled of them.
func (c *Set) remove(first int) {
	for _, f := range c.files[first:] {
		_ = os.Remove(f)
		if strings.HasSuffix(f, ".py") {
			stem := strings.TrimSuffix(filepath.Base(f), ".py")
			pyc, _ := filepath.Glob(filepath.Join(filepath.Dir(f), "__pycache__", stem+".*"))
			for _, p := range pyc {
				_ = os.Remove(p)
			}
		}
	}
	c.files = c.files[:first]
}

// Check takes the canaries of gate out of rep and records how they came
// out (testreport.WithCanaries). A gate that got none is returned as read.
func (c *Set) Check(gate string, rep testreport.Report) testreport.Report {
	if c == nil {
		return rep
	}
	rep = testreport.WithCanaries(rep, c.nonce, c.places[gate])
	return testreport.WithTwins(rep, c.nonce, c.twins[gate])
}

// Prepare is, for gates.RunOptions, the planting around each of tgs that
// runs in dir.
func (c *Set) Prepare(dir string, tgs []Gate) func(g gates.Gate) (func(), error) {
	if c == nil {
		return nil
	}
	return func(g gates.Gate) (func(), error) {
		j := slices.IndexFunc(tgs, func(tg Gate) bool { return tg.Name == g.Name })
		if j < 0 {
			return func() {}, nil
		}
		return c.Plant(dir, tgs[j])
	}
}

// testDirs are the directories under dir, relative to it with slashes,
// that hold a test file lang's runner finds by its own conventions: each
// gets canaries, so that every test process the runner starts there runs
// some. Directories a runner skips (.git, vendor, testdata, dependency
// environments, nested Go modules) and symbolic links are not entered.
func testDirs(dir, lang string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && skipDir(p, d.Name(), lang) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !isRunnerTest(d.Name(), rel, lang) {
			return nil
		}
		if at := path.Dir(rel); len(out) < maxCanaryPlaces && !slices.Contains(out, at) {
			out = append(out, at)
		}
		return nil
	})
	return out, err
}

func skipDir(p, name, lang string) bool {
	switch {
	case strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_"),
		name == "node_modules", name == "vendor", name == "testdata", name == "site-packages":
		return true
	case lang == "go":
		_, err := os.Stat(filepath.Join(p, "go.mod"))
		return err == nil
	case lang == "python":
		_, err := os.Stat(filepath.Join(p, "pyvenv.cfg"))
		return err == nil
	}
	return false
}

// isRunnerTest says the file is a test file lang's runner collects by
// default: Go's _test.go, pytest's and unittest's test_*.py and *_test.py,
// node --test's patterns (*.test.js, test-*.js, files under test/ …).
func isRunnerTest(name, rel, lang string) bool {
	switch lang {
	case "go":
		return strings.HasSuffix(name, "_test.go")
	case "python":
		return strings.HasSuffix(name, ".py") && (strings.HasPrefix(name, "test_") || strings.HasSuffix(name, "_test.py"))
	case "node":
		ext := path.Ext(name)
		if ext != ".js" && ext != ".mjs" && ext != ".cjs" {
			return false
		}
		stem := strings.TrimSuffix(name, ext)
		return stem == "test" || strings.HasPrefix(stem, "test-") || strings.HasSuffix(stem, ".test") ||
			strings.HasSuffix(stem, "-test") || strings.HasSuffix(stem, "_test") || slices.Contains(strings.Split(path.Dir(rel), "/"), "test")
	}
	return false
}
