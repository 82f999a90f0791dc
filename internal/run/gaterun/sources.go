package gaterun

import (
	"path"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/judge"
)

// A gate such as `npm test` or `pytest` names no script: its test runner
// reads what to run from a configuration file. An agent that rewrites
// package.json's "test" script to `exit 0` weakens the judge as surely as
// one that empties test.sh, so those files are protected too.

// runnerConfigs returns, per gate, the file-name patterns its test runner
// reads what to run from.
func runnerConfigs(gs []gates.Gate) map[string][]string {
	js := []string{"package.json", ".npmrc", ".yarnrc", ".yarnrc.yml", "bunfig.toml", "jest.config.*", "vitest.config.*", "vitest.workspace.*", ".mocharc*", "playwright.config.*", "karma.conf.*"}
	// sitecustomize/usercustomize.py run at Python's start-up from a
	// directory on sys.path (the top, under python -m pytest) and can patch
	// the runner; a pytest.py there shadows pytest itself.
	py := []string{"pytest.ini", "tox.ini", "conftest.py", "noxfile.py", "pyproject.toml", "setup.cfg",
		"sitecustomize.py", "usercustomize.py", "pytest.py"}
	out := map[string][]string{}
	for _, g := range gs {
		for _, w := range CommandWords(g.Command) {
			switch path.Base(w) {
			case "npm", "npx", "yarn", "pnpm", "bun", "jest", "vitest", "mocha", "playwright":
				out[g.Name] = append(out[g.Name], js...)
			case "pytest", "py.test", "tox", "nox":
				out[g.Name] = append(out[g.Name], py...)
			case "cargo":
				// Cargo.toml decides which targets cargo test builds as
				// tests (autotests = false drops tests/; [lib] test = false
				// the inline ones) and, with [patch], which code stands for
				// a dependency: compared on those parts only (judge.ConfigUnchanged).
				out[g.Name] = append(out[g.Name], ".cargo/config.toml", ".cargo/config", "Cargo.toml")
			case "mvn", "mvnw":
				// skipTests in pom.xml or -DskipTests in .mvn/maven.config,
				// a wrapper that downloads another Maven: pom.xml is compared
				// without its dependency lists (judge.ConfigUnchanged).
				out[g.Name] = append(out[g.Name], "pom.xml", ".mvn/maven.config", ".mvn/jvm.config", ".mvn/wrapper/maven-wrapper.properties")
			case "gradle", "gradlew":
				// test { enabled = false } in build.gradle (compared without
				// its dependencies blocks, judge.ConfigUnchanged), a property or a
				// wrapper that downloads another Gradle.
				out[g.Name] = append(out[g.Name], "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts",
					"gradle.properties", "gradle/wrapper/gradle-wrapper.properties")
			case "rspec":
				out[g.Name] = append(out[g.Name], ".rspec", ".rspec-local") // --dry-run passes every example
			case "rake":
				out[g.Name] = append(out[g.Name], "Rakefile", "rakefile", "Rakefile.rb") // the test task
			case "phpunit", "composer":
				out[g.Name] = append(out[g.Name], "phpunit.xml", "phpunit.xml.dist", "phpunit.dist.xml") // the test suites
			case "dotnet":
				out[g.Name] = append(out[g.Name], "*.runsettings", "Directory.Build.props", "Directory.Build.targets")
			case "go":
				// A replace directive can swap a test library for one whose
				// assertions pass; a go.work can do the same for any module;
				// a new go.mod below the top makes its directory a module of
				// its own, which ./... no longer tests.
				// vendor/: go test builds the vendored copies, the
				// assertion library's too, without checking their content.
				out[g.Name] = append(out[g.Name], "go.mod", "go.work", "vendor/**")
			}
		}
	}
	return out
}

// RunnerConfigFiles are the runner configurations with a fixed name, at
// the top of the repository, for the agent's prompt.
func RunnerConfigFiles(gs []gates.Gate) []string {
	var out []string
	for _, pats := range runnerConfigs(gs) {
		for _, p := range pats {
			if !strings.ContainsAny(p, "*?[") && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	slices.Sort(out)
	return out
}

// GateReading returns the first gate whose test runner reads p, "".
func GateReading(gs []gates.Gate, p string) string {
	cfgs := runnerConfigs(gs)
	for _, g := range gs {
		for _, pat := range cfgs[g.Name] {
			if judge.MatchGlob(pat, p) {
				return g.Name
			}
		}
	}
	return ""
}

// CommandWords splits a shell command into its words, roughly: enough to
// find the programs and files it names.
func CommandWords(cmd string) []string {
	return strings.FieldsFunc(cmd, func(c rune) bool {
		return strings.ContainsRune(" \t\n;|&()<>`'\"=", c)
	})
}

// GateScripts are the repository files the gate commands name: `sh
// test.sh`, `bash ./scripts/check.sh`, `python -m pytest tests/x.py`; and
// the makefile of a gate that runs make.
func GateScripts(gs []gates.Gate) []string {
	var out []string
	for _, g := range gs {
		for _, w := range CommandWords(g.Command) {
			switch {
			case w == "make":
				out = append(out, "Makefile", "makefile", "GNUmakefile")
			case strings.ContainsAny(w, "{}$*?") || strings.HasPrefix(w, "-") || !strings.ContainsAny(strings.Trim(w, "."), "./"):
				// a variable, a flag, a program name, ./...
			default:
				if c := path.Clean(strings.TrimPrefix(w, "./")); strings.Trim(c, ".") != "" && !strings.HasPrefix(c, "../") && !path.IsAbs(c) {
					out = append(out, c)
				}
			}
		}
	}
	return out
}
