package drive

import (
	"path"
	"slices"
	"strings"

	"github.com/planx-dev/planx/internal/judge"
	"github.com/planx-dev/planx/internal/run/taskgate"
	"github.com/planx-dev/planx/internal/run/verify"
	"github.com/planx-dev/planx/planparse"
)

// baseFormTests are the paths the judge's first run puts back as the base
// has them (or leaves out, when the base has none), beside the task's code:
// the tests are run in their base form. They are the test files the task
// changed, added or removed, declared or not; and of what it changed
// without declaring it, everything that is neither code nor what builds
// the code (judge.IsCode, buildsCode) — data and fixtures the tests read,
// a runner's or make's configuration — and the test support among its
// code (verify.TestSupport: an assertion helper). What a test asserted at
// the base, with the base's data, must still hold; the tests a task adds
// run in the second run, with its own. Left as the task has them: the
// test files the plan says the task changes (Changes tests:) or deletes
// (Delete:), and every other file the plan declares.
func (tu *turn) baseFormTests() []string {
	var out, code []string
	for _, f := range tu.lt.Files {
		switch {
		case judge.IsTestFile(f):
			if !tu.changesTestFile(f) {
				out = append(out, f)
			}
		case verify.AnyCovers(tu.t.Files, f):
		case judge.IsCode(f):
			code = append(code, f)
		case !buildsCode(f):
			out = append(out, f)
		}
	}
	repo, base := tu.at.where()
	return append(out, verify.TestSupport(repo, base, taskgate.GoModule(repo.Root), code)...)
}

// undeclared are the files the task changed that its plan does not
// declare (Files:): of those, a make gate's run apart puts back the ones
// make reads (gaterun.TestRuns.ExitCodesApart).
func (tu *turn) undeclared() []string {
	var out []string
	for _, f := range tu.lt.Files {
		if !verify.AnyCovers(tu.t.Files, f) {
			out = append(out, f)
		}
	}
	return out
}

// buildsCode says f says how the code is built and what it depends on (a
// module file, a dependency manifest or lock file, a build tool's project
// file): it goes with the task's code into the tests' base-form run.
func buildsCode(f string) bool {
	switch path.Base(f) {
	case "go.mod", "go.sum", "Cargo.toml", "Cargo.lock", "pom.xml", "build.gradle", "build.gradle.kts",
		"settings.gradle", "settings.gradle.kts", "Gemfile", "Gemfile.lock", "composer.json", "composer.lock", "CMakeLists.txt":
		return true
	}
	return slices.Contains(verify.DepManifests(), path.Base(f))
}

// changesTestFile says the plan lets the task change test file f: it
// names it under Changes tests:, or declares its deletion.
func (tu *turn) changesTestFile(f string) bool {
	for _, c := range tu.t.ChangesTests {
		if path.Clean(strings.TrimPrefix(c, "./")) == f {
			return true
		}
	}
	for _, d := range tu.t.Files {
		if d.Action == planparse.ActionDelete && verify.AnyCovers([]planparse.File{d}, f) {
			return true
		}
	}
	return false
}
