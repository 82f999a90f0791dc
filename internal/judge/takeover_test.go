package judge

import "testing"

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
