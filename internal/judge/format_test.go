package judge

import "testing"

// formatOnly accepts what gofmt, black and prettier do to a file and
// refuses any change to what it says, whitespace-only ones included.
func TestFormatOnly(t *testing.T) {
	goTest := "package calc\n\nimport \"testing\"\n\nfunc TestMul(t *testing.T) {\n\tif got := Mul(3, 4); got != 12 {\n\t\tt.Fatalf(\"got %d\", got)\n\t}\n}\n"
	pyTest := "import unittest\nclass T(unittest.TestCase):\n  def test_mul(self):\n    '''Mul.\n      Twelve.\n    '''\n    if VERBOSE:\n      print('x')\n    self.assertEqual(mul(3,4), 12, 'it\\'s')\n    self.assertEqual(d[1,], 2)\n"
	jsTest := "const {mul} = require('./calc')\nfunction check () {\n  return assert.strictEqual(mul(3,4), 12)\n}\nconst cases = [[0, 5, 0],]\nif (x) y()\ncheck()\n"
	for _, c := range []struct {
		name, path, before, after string
		want                      bool
	}{
		{"gofmt", "calc_test.go", "package calc\nimport \"testing\"\nfunc TestMul(t *testing.T){\n    if got:=Mul(3,4);got!=12 {\n        t.Fatalf(\"got %d\",got)\n    }\n}\n", goTest, true},
		{"go blank line", "calc_test.go", goTest, "package calc\n\nimport \"testing\"\n\nfunc TestMul(t *testing.T) {\n\n\tif got := Mul(3, 4); got != 12 {\n\t\tt.Fatalf(\"got %d\", got)\n\t}\n}\n", true},
		{"go expectation", "calc_test.go", goTest, "package calc\n\nimport \"testing\"\n\nfunc TestMul(t *testing.T) {\n\tif got := Mul(3, 4); got != 7 {\n\t\tt.Fatalf(\"got %d\", got)\n\t}\n}\n", false},
		{"go skip", "calc_test.go", goTest, "package calc\n\nimport \"testing\"\n\nfunc TestMul(t *testing.T) {\n\tt.Skip()\n\tif got := Mul(3, 4); got != 12 {\n\t\tt.Fatalf(\"got %d\", got)\n\t}\n}\n", false},
		{"go build tag", "calc_test.go", goTest, "//go:build ignore\n\n" + goTest, false},
		{"go string", "calc_test.go", goTest, "package calc\n\nimport \"testing\"\n\nfunc TestMul(t *testing.T) {\n\tif got := Mul(3, 4); got != 12 {\n\t\tt.Fatalf(\"got  %d\", got)\n\t}\n}\n", false},
		{"go unparsable, same tokens", "calc_test.go", "package calc\nfunc (", "package calc\nfunc  (", true},
		{"go unscannable", "calc_test.go", "package calc\nvar s = \"abc\n", "package calc\nvar s =  \"abc\n", false},

		{"black", "test_calc.py", pyTest, "import unittest\n\n\nclass T(unittest.TestCase):\n    def test_mul(self):\n        \"\"\"Mul.\n        Twelve.\n        \"\"\"\n        if VERBOSE:\n            print(\"x\")\n        self.assertEqual(\n            mul(3, 4),\n            12,\n            \"it's\",\n        )\n        self.assertEqual(d[1,], 2)\n", true},
		{"python indented into the if", "test_calc.py", pyTest, "import unittest\nclass T(unittest.TestCase):\n  def test_mul(self):\n    '''Mul.\n      Twelve.\n    '''\n    if VERBOSE:\n      print('x')\n      self.assertEqual(mul(3,4), 12, 'it\\'s')\n    self.assertEqual(d[1,], 2)\n", false},
		{"python tuple index", "test_calc.py", pyTest, "import unittest\nclass T(unittest.TestCase):\n  def test_mul(self):\n    '''Mul.\n      Twelve.\n    '''\n    if VERBOSE:\n      print('x')\n    self.assertEqual(mul(3,4), 12, 'it\\'s')\n    self.assertEqual(d[1], 2)\n", false},
		{"python tuple", "t_test.py", "x = (1,)\n", "x = (1)\n", false},
		{"python list comma", "t_test.py", "x = [1,]\n", "x = [1]\n", true},
		{"python spaces", "t_test.py", "x=-1\nf(a,b)\n", "x = -1\nf(a, b)\n", true},
		{"python words", "t_test.py", "assert a or b\n", "assert aor b\n", false},
		{"python string spaces", "t_test.py", "assert f('a b')\n", "assert f('a  b')\n", false},
		{"python raw", "t_test.py", `x = r'a\"b'` + "\n", `x = r'a"b'` + "\n", false},
		{"python raw quotes", "t_test.py", `x = r'a\'b'` + "\n", `x = r"a\'b"` + "\n", true},
		{"python bad dedent", "t_test.py", "if a:\n    b\n  c\n", "if a:\n    b\n    c\n", false},
		{"python comment", "t_test.py", "x = 1\n", "x = 1  # pragma: no cover\n", false},

		{"prettier", "calc.test.js", jsTest, "const { mul } = require(\"./calc\");\nfunction check() {\n  return assert.strictEqual(\n    mul(3, 4),\n    12,\n  );\n}\nconst cases = [[0, 5, 0]];\nif (x) y();\ncheck();\n", true},
		{"js return line break", "calc.test.js", jsTest, "const {mul} = require('./calc')\nfunction check () {\n  return\n    assert.strictEqual(mul(3,4), 12)\n}\nconst cases = [[0, 5, 0],]\nif (x) y()\ncheck()\n", false},
		{"js empty if body", "calc.test.js", "if (x) ;\ny()\n", "if (x)\ny()\n", false},
		{"js call continues", "calc.test.js", "a;\n(b)\n", "a\n(b)\n", false},
		{"js increments", "calc.test.js", "x = a + ++b\n", "x = a++ + b\n", false},
		{"js postfix line", "calc.test.js", "a\n++b\n", "a++\nb\n", false},
		{"js holes", "calc.test.js", "x = [,]\n", "x = []\n", false},
		{"js regex", "calc.test.js", "expect(s).toMatch(/a b/)\n", "expect(s).toMatch(/a  b/)\n", false},
		{"js template", "calc.test.js", "x = `a b`\n", "x = `a  b`\n", false},
		{"js quotes", "calc.test.js", `x = 'it\'s'` + "\n", `x = "it's";` + "\n", true},

		{"json data", "tests/want.json", "{\"a\":[1,2]}", "{\n  \"a\": [1, 2]\n}\n", false},
		{"go test data", "testdata/want.go", "package p\nvar x=1\n", "package p\n\nvar x = 1\n", false},
		{"js fixture", "src/__fixtures__/a.js", "x = 'a'\n", "x = \"a\";\n", false},
		{"shell", "tests/mul.sh", "[ \"$x\" = 6 ]\n", "[ \"$x\"= 6 ]\n", false},
		{"unchanged", "tests/mul.sh", "x\n", "x\n", true},
	} {
		if got := FormatOnly(c.path, []byte(c.before), []byte(c.after)); got != c.want {
			t.Errorf("%s: formatOnly = %v, want %v", c.name, got, c.want)
		}
	}
}
