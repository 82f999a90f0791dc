package judge

import (
	"path"
	"strings"
)

// codeExts are the extensions of source files a language's runner
// compiles or loads as code, not as data.
var codeExts = map[string]bool{
	".go": true, ".py": true, ".js": true, ".mjs": true, ".cjs": true, ".jsx": true,
	".ts": true, ".mts": true, ".cts": true, ".tsx": true, ".rs": true, ".rb": true,
	".java": true, ".kt": true, ".scala": true, ".c": true, ".h": true, ".cc": true,
	".cpp": true, ".hpp": true, ".cs": true, ".swift": true, ".php": true,
}

// IsCode reports whether p is code under test by its runner's own
// conventions: a source file of a language that is not a test file
// (IsTestFile: _test.go, test_*.py, *.test.js, tests/, testdata/ …).
// Everything else a task changes (its tests, data, configuration, build
// files, documents) is not: the counterfactual judge keeps it and takes
// the code away.
func IsCode(p string) bool {
	return codeExts[strings.ToLower(path.Ext(p))] && !IsTestFile(p)
}
