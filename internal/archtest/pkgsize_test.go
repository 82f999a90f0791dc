package archtest

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// maxPackageLines and maxEngineLines are the house sizes of a package, in
// lines of its non-test Go files: a package holds one job a reader can
// learn whole, and a part of the engine (internal/run/…) a smaller one.
const (
	maxPackageLines = 5000
	maxEngineLines  = 3000
)

// bigPackages are the packages allowed more lines, each with the most it
// may have now: a count may only go down, and an entry goes once its
// package is within the house size. None is, today.
var bigPackages = map[string]int{}

// TestPackageSizes holds every package of the module to maxPackageLines
// and every package of the engine to maxEngineLines, bigPackages aside.
func TestPackageSizes(t *testing.T) {
	lines := packageLines(t, moduleRoot(t))
	if len(lines) < 20 || lines["internal/run/drive"] == 0 {
		t.Fatalf("only %d packages counted, the executor's %d lines: is the walk skipping the module?", len(lines), lines["internal/run/drive"])
	}
	for _, msg := range oversize(lines, bigPackages) {
		t.Error(msg)
	}
}

// TestOversize checks the rule itself on literal counts: at its limit a
// package passes, one line over it does not.
func TestOversize(t *testing.T) {
	big := map[string]int{"gitops": 5346, "planparse": 4000}
	for _, c := range []struct {
		lines map[string]int
		want  []string // the packages reported
	}{
		{map[string]int{"internal/run/wave": 3000, "internal/review": 5000, "gitops": 5346}, nil},
		{map[string]int{"internal/run/wave": 3001}, []string{"internal/run/wave"}},
		{map[string]int{"internal/review": 5001, "internal/run": 3500}, []string{"internal/review"}},
		{map[string]int{"gitops": 5347}, []string{"gitops"}},
		// an allowance no longer needed is reported, to be taken out
		{map[string]int{"gitops": 4999, "planparse": 3000}, []string{"gitops", "planparse"}},
	} {
		var got []string
		for _, msg := range oversize(c.lines, big) {
			got = append(got, strings.Fields(msg)[0])
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("oversize(%v) reports %v, want %v", c.lines, got, c.want)
		}
	}
}

// limitOf is the most lines package dir (relative to the module, with
// slashes) may have by the house sizes: the engine's parts are the
// packages under internal/run/.
func limitOf(dir string) int {
	if strings.HasPrefix(dir, "internal/run/") {
		return maxEngineLines
	}
	return maxPackageLines
}

// oversize says, sorted by package, which packages of lines are over
// their limit (big's allowance where it has one) and which allowances of
// big are no longer needed.
func oversize(lines, big map[string]int) []string {
	var out []string
	for dir, n := range lines {
		limit := limitOf(dir)
		if allowed, ok := big[dir]; ok {
			if n <= limit {
				out = append(out, fmt.Sprintf("%s is %d lines, within the house size %d: take it out of bigPackages", dir, n, limit))
				continue
			}
			limit = allowed
		}
		if n > limit {
			out = append(out, fmt.Sprintf("%s is %d lines of non-test Go, over %d: give one of its jobs a package of its own", dir, n, limit))
		}
	}
	sort.Strings(out)
	return out
}

// packageLines counts the lines of the non-test Go files of each
// directory under root, by its path relative to root with slashes: a
// directory is a package. Test data and plans are not code of the module.
func packageLines(t *testing.T, root string) map[string]int {
	t.Helper()
	lines := map[string]int{}
	err := walkGo(root, func(path string) error {
		if strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		lines[filepath.ToSlash(rel)] += bytes.Count(b, []byte("\n"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// walkGo calls fn with every Go file of the module under root, test
// files included: not those of .git, test data or plans.
func walkGo(root string, fn func(path string) error) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == ".git" || name == "testdata" || name == "memory-bank" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		return fn(path)
	})
}
