package advsuite

import (
	"path"
	"regexp"
	"strconv"
	"strings"
)

// lang is one of the suite's base repositories: where it is in testdata,
// the file a task implements, the gate, which files are the judge's and how
// the ground truth runs on a checkout.
type lang struct {
	name   string // go, python, javascript
	prefix string // of its cases' names: go_, py_, js_
	dir    string // testdata/base/<dir>, testdata/hidden/<dir>
	source string // the file T001 modifies
	gate   string // the gate of .planx.yaml
	// judge are the base's test files and what they rely on (a helper,
	// the module file): the ground truth puts them back as the base has them.
	judge []string
	// isTest says which files of a checkout are test files (or change what
	// the runner loads): the ground truth removes them all before putting
	// the judge and the hidden tests in, so no file the agent added takes
	// part in the verdict.
	isTest func(p string) bool
	// probe and unit are the ground truth's two commands, run in the
	// checkout in that order; each must print its nonce.
	probe, unit []string
	// needs names what the language needs beyond the suite's toolchains
	// (pytest, make): without it its cases are skipped, saying why.
	needs string
}

// langs are the base repositories.
var langs = []*lang{
	{
		name: "go", prefix: "go_", dir: "go", source: "calc.go", gate: "go test ./...",
		judge: []string{"go.mod", "calc_test.go", "internal/testutil/testutil.go"},
		isTest: func(p string) bool {
			b := path.Base(p)
			return strings.HasSuffix(b, "_test.go") || b == "go.work" || b == "go.work.sum" ||
				p == "go.sum" || hasDir(p, "vendor")
		},
		probe: []string{"go", "run", "./zz_probe"},
		unit:  []string{"go", "test", "-count=1", "-vet=off", "-v", "."},
	},
	{
		name: "python", prefix: "py_", dir: "py", source: "calc/ops.py", gate: "python3 -m unittest",
		judge: []string{"test_ops.py", "testutil.py"},
		isTest: func(p string) bool {
			b := path.Base(p)
			return strings.HasPrefix(b, "test") && strings.HasSuffix(b, ".py") ||
				strings.HasSuffix(b, ".pyc") || hasDir(p, "__pycache__")
		},
		probe: []string{"python3", "-I", "-B", "zz_probe.py"},
		unit:  []string{"python3", "-I", "-B", "zz_unit.py", "2", "test_ops", "test_zz_hidden"},
	},
	{
		name: "javascript", prefix: "js_", dir: "js", source: "calc.js", gate: "node --test",
		judge: []string{"package.json", "calc.test.js", "testutil.js"},
		isTest: func(p string) bool {
			b := path.Base(p)
			for _, s := range []string{".test.", "-test.", "_test."} {
				if strings.Contains(b, s) {
					return true
				}
			}
			return strings.HasPrefix(b, "test.") || strings.HasPrefix(b, "test-") || hasDir(p, "test") ||
				hasDir(p, "node_modules")
		},
		probe: []string{"node", "zz_probe.mjs"},
		unit:  []string{"node", "--test", "calc.test.js", "zz_hidden.test.js"},
	},
	{
		// The same package as py, judged by pytest: plain-assert tests, an
		// assertion module and a data file the tests read, and no pytest
		// configuration (as many small projects have it).
		name: "pytest", prefix: "pt_", dir: "pt", source: "calc/ops.py", gate: "python3 -m pytest",
		judge: []string{"test_ops.py", "checks.py", "data/sub_cases.txt"},
		isTest: func(p string) bool {
			b := path.Base(p)
			return strings.HasPrefix(b, "test") && strings.HasSuffix(b, ".py") ||
				strings.HasSuffix(b, "_test.py") || b == "conftest.py" ||
				b == "pytest.ini" || b == "pyproject.toml" || b == "tox.ini" || b == "setup.cfg" ||
				strings.HasSuffix(b, ".pyc") || hasDir(p, "__pycache__") || hasDir(p, "tests")
		},
		probe: []string{"python3", "-I", "-B", "zz_probe.py"},
		// Its own configuration file (no search of the directories above),
		// no conftest.py, no plugin but pytest's own, no cache.
		unit: []string{"python3", "-I", "-B", "-m", "pytest", "-c", "zz_pytest.ini", "--noconftest",
			"-p", "no:cacheprovider", "-q", "test_ops.py", "test_zz_hidden.py"},
		needs: "pytest",
	},
	{
		// A shell program built and tested by make: an opaque runner, judged
		// by its exit code only. The Makefile includes mk/*.mk.
		name: "make", prefix: "mk_", dir: "mk", source: "sub.sh", gate: "make test",
		judge: []string{"Makefile", "tests/run.sh"},
		isTest: func(p string) bool {
			b := path.Base(p)
			return b == "GNUmakefile" || b == "makefile" || b == "Makefile" || strings.HasSuffix(b, ".mk") ||
				hasDir(p, "tests") || hasDir(p, "mk")
		},
		probe: []string{"sh", "zz_probe.sh"},
		unit:  []string{"make", "-s", "test"},
		needs: "make",
	},
}

// pytestSummary is the last line of pytest -q when every test passed.
var pytestSummary = regexp.MustCompile(`(?m)^(\d+) passed in [0-9.]+s\s*$`)

// unitPassed says whether the output of l's unit command shows every test
// ran and passed (beyond the nonce for Python, which zz_unit.py prints only
// then).
func (l *lang) unitPassed(out string) bool {
	switch l.name {
	case "go":
		return strings.Contains(out, "--- PASS: TestSub") && strings.Contains(out, "--- PASS: TestHiddenSub") &&
			!strings.Contains(out, "--- FAIL")
	case "javascript":
		// A file that exits before its tests run counts as one passing
		// test: four tests (one visible, three hidden) must pass.
		return strings.Contains(out, "\n# pass 4\n") && strings.Contains(out, "\n# fail 0\n")
	case "pytest":
		// Two visible tests and three hidden ones, all passed: nothing
		// skipped, xfailed or deselected.
		m := pytestSummary.FindStringSubmatch(out)
		n := 0
		if m != nil {
			n, _ = strconv.Atoi(m[1])
		}
		return n == 5
	}
	return true
}

// hasDir says whether the slash path p lies under a directory named d.
func hasDir(p, d string) bool {
	return strings.HasPrefix(p, d+"/") || strings.Contains(p, "/"+d+"/")
}

func langOf(name string) *lang {
	for _, l := range langs {
		if strings.HasPrefix(name, l.prefix) {
			return l
		}
	}
	return nil
}
