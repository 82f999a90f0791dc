package verify

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/judge"
)

// Test support is the code the tests use and the code under test does not:
// an assertion helper (internal/testutil), a fixture builder. It decides
// whether a test passes as much as the test files do, but is not named like
// one, so the judge finds it by who uses it: in the base commit, some test
// file refers to it and no other file (outside its own package) does.

// sourceExts are the languages whose references TestSupport reads.
func sourceExts() []string { return []string{".go", ".py", ".js", ".mjs", ".cjs", ".ts"} }

// maxSupportScan bounds the source the judge reads to find test support;
// past it, no file counts as support (the test files alone are restored).
const maxSupportScan = 8 << 20

// TestSupport returns which of paths (files the task changed without
// declaring them) are test support at the commit base of repo; module is
// the Go module's path ("" for none).
func TestSupport(repo *gitops.Repo, base gitops.SHA, module string, paths []string) []string {
	var candidates []string
	for _, p := range paths {
		if !judge.IsTestFile(p) && slices.ContainsFunc(sourceExts(), func(e string) bool { return strings.HasSuffix(p, e) }) {
			candidates = append(candidates, p)
		}
	}
	if len(candidates) == 0 {
		return nil
	}
	srcs, ok, err := repo.Objects().Sources(base, sourceExts(), maxSupportScan)
	if err != nil || !ok {
		return nil
	}
	var out []string
	for _, p := range candidates {
		if _, existed := srcs[p]; !existed {
			continue // new: the judge cannot know what it is for
		}
		re := referenceTo(p, module)
		if re == nil {
			continue
		}
		byTests, byCode := false, false
		for f, b := range srcs {
			if f == p || (strings.HasSuffix(p, ".go") && path.Dir(f) == path.Dir(p)) || !re.Match(b) {
				continue
			}
			if judge.IsTestFile(f) {
				byTests = true
			} else {
				byCode = true
			}
		}
		if byTests && !byCode {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// referenceTo matches source that imports p: Go by its package's import
// path, Python by its module name, JavaScript by a relative specifier
// ending in its name. nil where p cannot be imported on its own (a Go file
// of the module's root package, which is the code under test).
func referenceTo(p, module string) *regexp.Regexp {
	dir, base := path.Dir(p), path.Base(p)
	stem := strings.TrimSuffix(base, path.Ext(base))
	switch path.Ext(p) {
	case ".go":
		if module == "" || dir == "." {
			return nil
		}
		return regexp.MustCompile(`"` + regexp.QuoteMeta(module+"/"+dir) + `"`)
	case ".py":
		if stem == "__init__" {
			stem = path.Base(dir)
		}
		return regexp.MustCompile(`(?m)^\s*(?:from|import)\s[^\n]*\b` + regexp.QuoteMeta(stem) + `\b`)
	default:
		return regexp.MustCompile(`['"]\.{1,2}/(?:[^'"]*/)?` + regexp.QuoteMeta(stem) + `(?:\.[cm]?[jt]s)?['"]`)
	}
}
