package canary

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/testreport"
)

func TestPyRename(t *testing.T) {
	names := map[string]string{"test_sub": "test_X", "checks": "h0", "expect_equal": "expect_equal_X"}
	src := `from checks import expect_equal
from .checks import expect_equal as e
import checks


def test_sub():  # test_sub in a comment stays
    expect_equal(sub(5, 3), 2, "test_sub in a string stays")
    checks.expect_equal(1, 1)
    other.checks.test_sub()
    r'''test_sub''' and f"{x}" and test_sub_cases
`
	want := `from h0 import expect_equal_X
from .h0 import expect_equal_X as e
import h0


def test_X():  # test_sub in a comment stays
    expect_equal_X(sub(5, 3), 2, "test_sub in a string stays")
    h0.expect_equal_X(1, 1)
    other.checks.test_sub()
    r'''test_sub''' and f"{x}" and test_sub_cases
`
	if got := pyRename(src, names); got != want {
		t.Errorf("pyRename:\n%s\nwant\n%s", got, want)
	}
}

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPyTwin(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"tests/test_ops.py": "from calc import sub\nfrom testutil import check_equal\n\n\nclass TestSub:\n    def test_sub(self):\n        check_equal(self, sub(5, 3), 2)\n",
		"tests/testutil.py": "def check_equal(case, got, want):\n    assert got == want\n",
		"tests/calc.py":     "def sub(a, b):\n    return a - b\n",
	})
	c := New([]string{"tests/calc.py"})
	tw := c.pyTwin(dir, "tests.test_ops.TestSub.test_sub[1-2]", "TOK")
	if tw.place != "tests" {
		t.Errorf("place %q, want tests", tw.place)
	}
	test, helper := tw.files["tests/test_TOK.py"], tw.files["tests/planxtwin_tokh1.py"]
	for _, want := range []string{"from planxtwin_tokh1 import check_equal_TOK", "class TestTOK:", "def test_TOK(self):",
		"check_equal_TOK(self, sub(5, 3), 2)", "from calc import sub"} {
		if !strings.Contains(test, want) {
			t.Errorf("twin test lacks %q:\n%s", want, test)
		}
	}
	if !strings.Contains(helper, "def check_equal_TOK(case, got, want):") {
		t.Errorf("twin helper:\n%s (files %v)", helper, tw.files)
	}
	if len(tw.files) != 2 {
		t.Errorf("files %v: the code the task changed (calc.py) is never copied", tw.files)
	}
	if tw := c.pyTwin(dir, "tests.test_gone.test_sub", "TOK"); tw.files != nil {
		t.Errorf("a test whose file is not there has a twin: %v", tw.files)
	}
}

func TestNodeTwin(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"calc.test.js": "import { test } from 'node:test';\nimport { sub } from './calc.js';\nimport { expectEqual } from './testutil.js';\n\n" +
			"test('sub', () => {\n  expectEqual(sub(5, 3), 2);\n});\ntest('sub more', () => {});\nop('sub');\n",
		"testutil.js": "export function expectEqual(got, want) {}\n",
		"calc.js":     "export function sub(a, b) { return a - b; }\n",
	})
	c := New([]string{"calc.js"})
	tw := c.nodeTwin(dir, "sub", "TOK")
	test := tw.files["planxtwin-tok.test.js"]
	for _, want := range []string{"test('TOK sub', () => {", "test('" + testreport.TwinCopy(c.nonce) + " sub more'", "op('sub')",
		"from './planxtwin-tokh0.js'", "from './calc.js'"} {
		if !strings.Contains(test, want) {
			t.Errorf("twin lacks %q:\n%s", want, test)
		}
	}
	if _, ok := tw.files["planxtwin-tokh0.js"]; !ok || len(tw.files) != 2 {
		t.Errorf("files %v, want the twin and its helper's copy", tw.files)
	}
}

func TestPlantTwinsParameters(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"test_ops.py": "import pytest\n\n\n@pytest.mark.parametrize('a', [1, 2])\ndef test_sub(a):\n    pass\n",
	})
	c := New(nil)
	c.fix = map[string][]string{"test": {"test_ops.test_sub[1]", "test_ops.test_sub[2]", "test_ops.test_gone"}}
	c.places["test"] = []string{"."}
	if err := c.plantTwins(dir, "test", "python"); err != nil {
		t.Fatal(err)
	}
	// one file runs both parameters; the test whose file is gone has none
	if len(c.files) != 1 || len(c.twins["test"]) != 2 || c.twins["test"][0].K != c.twins["test"][1].K {
		t.Errorf("files %v, twins %+v: want one twin file standing for both parameters", c.files, c.twins["test"])
	}
	c.remove(0)
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the twin was not removed: %v", entries)
	}
}
