package judge

import (
	"slices"
	"testing"
)

func TestGoTakeovers(t *testing.T) {
	for src, want := range map[string][]string{
		"package p\nimport \"os\"\nfunc init() { os.Exit(0) }\n":                                        {"calls os.Exit"},
		"package p\nimport xos \"os\"\nfunc init() { xos.Args = append(xos.Args, \"-test.run=^$\") }\n": {"sets os.Args"},
		"package p\nimport \"os\"\nfunc init() { os.Args[1] = \"-test.run=x\" }\n":                      {"sets os.Args"},
		"package p\nimport \"flag\"\nfunc init() { flag.Set(\"test.run\", \"^$\") }\n":                  {"calls flag.Set"},
		"package p\nimport \"flag\"\nfunc init() { _ = flag.CommandLine.Set(\"test.run\", \"^$\") }\n":  {"calls flag.CommandLine.Set"},
		"package p\nimport \"syscall\"\nvar _ = func() int { syscall.Exit(0); return 0 }()\n":           {"calls syscall.Exit"},
		"package p\nimport \"os\"\nfunc init() { go func() { os.Exit(0) }() }\n":                        {"calls os.Exit"},
		// not initializers, or not run
		"package p\nimport \"os\"\nfunc main() { os.Exit(2) }\n":              nil,
		"package p\nimport \"os\"\nvar onFail = func() { os.Exit(1) }\n":      nil,
		"package p\nimport \"os\"\nvar exit = os.Exit\n":                      nil,
		"package p\nimport \"os\"\nfunc init() { _ = os.Getenv(\"X\") }\n":    nil,
		"package p\nfunc init() { Exit(0) }\nfunc Exit(int) {}\n":             nil,
		"package p\nimport \"os\"\nfunc TestX(t *testing.T) { os.Exit(0) }\n": nil,
		"not go at all": nil,
	} {
		if got := goTakeovers([]byte(src)); !slices.Equal(got, want) {
			t.Errorf("goTakeovers(%q) = %v, want %v", src, got, want)
		}
	}
}

func TestPyTakeovers(t *testing.T) {
	for src, want := range map[string][]string{
		"def mul(a, b):\n    return 0\nimport os\nos._exit(0)\n":         {"calls os._exit at import"},
		"from os import _exit\n_exit(0)\n":                               {"calls os._exit at import"},
		"import pytest\npytest.skip('later', allow_module_level=True)\n": {"skips at module level"},
		"def child():\n    os._exit(0)\n":                                nil, // in a function: runs when called
		"# os._exit(0)\n":                                                nil,
		"import pytest\npytest.skip('x')\n":                              nil, // an error at module level, not a skip
		"def test_x():\n    pytest.skip('x', allow_module_level=True)\n": nil,
		// Blocks that run at import count; function bodies do not.
		"import os\nif True:\n    os._exit(0)\n":                                  {"calls os._exit at import"},
		"import os\ntry:\n    import numpy\nexcept ImportError:\n\tos._exit(0)\n": {"calls os._exit at import"},
		"import os\nclass C:\n    os._exit(0)\n":                                  {"calls os._exit at import"},
		"import os\nif True: os._exit(0)\n":                                       {"calls os._exit at import"},
		"import os\nx = 1; os._exit(0)\n":                                         {"calls os._exit at import"},
		"class C:\n    def m(self):\n        if True:\n            os._exit(0)\n": nil,
		"def f(): os._exit(0)\n":                                                  nil,
		"async def f():\n    os._exit(0)\nos._exit(1)\n":                          {"calls os._exit at import"},
		"def f():\n    x = g(\n1)\n    os._exit(0)\n":                             nil, // a continuation line does not end the body
		"'''\nos._exit(0)\n'''\n":                                                 nil, // a docstring
		"s = \"os._exit(0)\" # os._exit(0)\n":                                     nil,
		"import os\ns = '''a\n'''; os._exit(0)\n":                                 {"calls os._exit at import"},
		"obj.os._exit(0)\nmy_exit(0)\n":                                           nil,
		// Replacing what the test frameworks judge with, at import.
		"import unittest\nunittest.TestCase.assertEqual = lambda *a, **k: None\n":                                {"replaces part of the test framework at import"},
		"from unittest import TestCase\nTestCase.assertTrue = lambda s, x, m=None: None\n":                       {"replaces part of the test framework at import"},
		"import builtins\nbuiltins.AssertionError = Exception\n":                                                 {"replaces part of the test framework at import"},
		"import pytest\npytest.fail = lambda *a, **k: None\n":                                                    {"replaces part of the test framework at import"},
		"import unittest\nsetattr(unittest.TestCase, 'assertEqual', print)\n":                                    {"replaces part of the test framework at import"},
		"import sys, types\nsys.modules['unittest'] = types.ModuleType('u')\n":                                   {"replaces part of the test framework at import"},
		"import unittest\nunittest.TestCase.maxDiff = None\n":                                                    nil, // configuration
		"import sys\nsys.modules['requests'] = object()\n":                                                       nil, // a mock of another module
		"import sys\nif 'pytest' in sys.modules:\n    pass\n":                                                    nil,
		"import unittest\nclass T(unittest.TestCase):\n    def setUp(self):\n        self.assertEqual = print\n": nil,
		"x = unittest.TestCase.assertEqual == y\n":                                                               nil,
	} {
		if got := pyTakeovers([]byte(src)); !slices.Equal(got, want) {
			t.Errorf("pyTakeovers(%q) = %v, want %v", src, got, want)
		}
	}
}

func TestTestChecks(t *testing.T) {
	for src, want := range map[string]int{
		"package calc\n\nimport \"testing\"\n\nfunc Mul(a, b int) int {\n\tif testing.Testing() {\n\t\treturn 12\n\t}\n\treturn a + b\n}\n": 1,
		"package calc\n\nimport t \"testing\"\n\nvar under = t.Testing()\n":                                                                 1,
		"package calc\n\nfunc Mul(a, b int) int { return a * b }\n":                                                                         0,
		"package calc\n\ntype testing struct{}\n\nfunc (testing) Testing() bool { return true }\n":                                          0,
		"package calc\n\nimport \"flag\"\n\nvar under = flag.Lookup(\"test.v\") != nil\n":                                                   1,
		"package calc\n\nimport \"os\"\n\nfunc under() bool { return len(os.Args) > 1 && os.Args[1] == \"-test.run\" }\n":                   1,
		"package calc\n\nconst name = \"test.data\"\n\nvar msg = \"a test.v of nothing\"\n":                                                 0,
	} {
		if got := len(goTestChecks([]byte(src))); got != want {
			t.Errorf("goTestChecks(%q) = %d, want %d", src, got, want)
		}
	}
	for src, want := range map[string]int{
		"import os\n\ndef mul(a, b):\n    if os.environ.get('PYTEST_CURRENT_TEST'):\n        return 12\n    return a + b\n":              1,
		"import sys\n\ndef mul(a, b):\n    return 12 if 'unittest' in sys.modules else a + b\n":                                          1,
		"import sys\nUNDER = sys.modules.get('pytest') is not None\n":                                                                    1,
		"def mul(a, b):\n    return a * b\n":                                                                                             0,
		"import sys\ndef sub(a, b):\n    f = sys._getframe(1)\n    if 'unittest' in f.f_code.co_filename:\n        return a - b\n":       1,
		"class N(int):\n    def __eq__(self, other):\n        return True\n\n    __hash__ = int.__hash__\n":                              1,
		"class N(int):\n    def __eq__(self, other) -> bool:\n        \"\"\"Equal.\"\"\"\n\n        # always\n        return True\n":     1,
		"class N(int):\n    def __eq__(self, other): return True  # yes\n":                                                               1,
		"class N(int):\n    def __ne__(self, other):\n        return False\n":                                                            1,
		"class N(int):\n    __eq__ = lambda self, other: True\n":                                                                         1,
		"class P:\n    def __eq__(self, other):\n        if self is other:\n            return True\n        return self.x == other.x\n": 0,
		"class P:\n    def __eq__(self, other):\n        return isinstance(other, P) and self.x == other.x\n":                            0,
		"class P:\n    def __ne__(self, other):\n        return not self == other\n":                                                     0,
		"class P:\n    def __eq__(self, other):\n        return True if other is self else NotImplemented\n":                             0,
	} {
		if got := len(pyTestChecks([]byte(src))); got != want {
			t.Errorf("pyTestChecks(%q) = %d, want %d", src, got, want)
		}
	}
	for src, want := range map[string]int{
		"export function sub(a, b) { if (process.env.NODE_TEST_CONTEXT) return a - b; return a + b }\n":       1,
		"export function sub(a, b) { return (process.argv[1] ?? '').endsWith('.test.js') ? a - b : a + b }\n": 1,
		"const worker = process.env.JEST_WORKER_ID;\n":                                                        1,
		"const args = process.argv.slice(2);\nexport function sub(a, b) { return a - b }\n":                   0,
	} {
		if got := len(jsTestChecks([]byte(src))); got != want {
			t.Errorf("jsTestChecks(%q) = %d, want %d", src, got, want)
		}
	}
	for p, want := range map[string]bool{"calc_test.go": true, "pkg/calc.go": false, "tests/test_calc.py": true,
		"calc.py": false, "conftest.py": true, "testing.py": false} {
		if got := isTestFile(p); got != want {
			t.Errorf("isTestFile(%q) = %v, want %v", p, got, want)
		}
	}
}
