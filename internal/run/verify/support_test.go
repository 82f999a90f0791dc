package verify

import "testing"

// Which source refers to a file, by language.
func TestReferenceTo(t *testing.T) {
	t.Parallel()
	cases := []struct {
		file, src string
		want      bool
	}{
		{"internal/testutil/testutil.go", "import (\n\t\"testing\"\n\t\"example.com/calc/internal/testutil\"\n)", true},
		{"internal/testutil/testutil.go", "import \"example.com/calc/internal/testutilx\"", false},
		{"testutil.py", "from testutil import expect_equal\n", true},
		{"testutil.py", "import os, testutil\n", true},
		{"testutil.py", "# uses testutil\nx = 1\n", false},
		{"tests/helpers/__init__.py", "from tests.helpers import check\n", true},
		{"testutil.js", "import { expectEqual } from './testutil.js';\n", true},
		{"lib/testutil.js", "const t = require('../lib/testutil')\n", true},
		{"testutil.js", "import x from 'testutil-pkg';\n", false},
	}
	for _, c := range cases {
		re := referenceTo(c.file, "example.com/calc")
		if got := re != nil && re.MatchString(c.src); got != c.want {
			t.Errorf("referenceTo(%s) on %q = %v, want %v", c.file, c.src, got, c.want)
		}
	}
	if referenceTo("calc.go", "example.com/calc") != nil {
		t.Error("the module's root package is the code under test, not support")
	}
}
