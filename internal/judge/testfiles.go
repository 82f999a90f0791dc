package judge

import (
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// DefaultTestGlobs name test files the way the common ecosystems do. A
// pattern without '/' matches a file name anywhere; one ending in '/'
// matches a directory of that name anywhere; others match the whole path,
// '**' standing for any number of directories.
func DefaultTestGlobs() []string {
	return []string{
		"*_test.go", "testdata/", // Go
		"test_*.py", "*_test.py", "conftest.py", // Python
		"*.test.*", "*.spec.*", "__tests__/", // JavaScript, TypeScript
		"*_spec.rb", "spec/", // Ruby
		"*Test.java", "*Tests.java", "*Test.kt", // JVM
		"*.bats", "tests/", "test/", // shell, Rust, everything else
		// Snapshots and golden files are the expected output: `jest -u`,
		// `cargo insta accept` or `go test -update` make them say what
		// wrong code prints.
		"__snapshots__/", "*.snap", "*.golden", "*.approved.*",
	}
}

// IsTestFile reports whether p is a test file by the default globs.
func IsTestFile(p string) bool {
	return slices.ContainsFunc(DefaultTestGlobs(), func(g string) bool { return MatchGlob(g, p) })
}

// MatchGlob matches a protect/unprotect pattern against a repo-relative
// slash path (see DefaultTestGlobs for the forms).
func MatchGlob(pattern, p string) bool {
	switch {
	case strings.HasSuffix(pattern, "/") && !strings.Contains(strings.TrimSuffix(pattern, "/"), "/"):
		dir := strings.TrimSuffix(pattern, "/")
		parts := strings.Split(p, "/")
		return slices.ContainsFunc(parts[:len(parts)-1], func(s string) bool { ok, _ := path.Match(dir, s); return ok })
	case !strings.Contains(pattern, "/"):
		ok, _ := path.Match(pattern, path.Base(p))
		return ok
	}
	pattern = strings.TrimSuffix(pattern, "/")
	if strings.HasSuffix(pattern, "/**") {
		pattern += "/*" // "dir/**" covers dir's files at any depth
	}
	ok, _ := doublestar.Match(strings.TrimPrefix(pattern, "/"), p)
	return ok
}
