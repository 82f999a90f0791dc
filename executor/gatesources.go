package executor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"golang.org/x/mod/modfile"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/judge"
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
		for _, w := range commandWords(g.Command) {
			switch path.Base(w) {
			case "npm", "npx", "yarn", "pnpm", "bun", "jest", "vitest", "mocha", "playwright":
				out[g.Name] = append(out[g.Name], js...)
			case "pytest", "py.test", "tox", "nox":
				out[g.Name] = append(out[g.Name], py...)
			case "cargo":
				// Cargo.toml decides which targets cargo test builds as
				// tests (autotests = false drops tests/; [lib] test = false
				// the inline ones) and, with [patch], which code stands for
				// a dependency: compared on those parts only (cargoJudge).
				out[g.Name] = append(out[g.Name], ".cargo/config.toml", ".cargo/config", "Cargo.toml")
			case "mvn", "mvnw":
				// skipTests in pom.xml or -DskipTests in .mvn/maven.config,
				// a wrapper that downloads another Maven: pom.xml is compared
				// without its dependency lists (pomJudge).
				out[g.Name] = append(out[g.Name], "pom.xml", ".mvn/maven.config", ".mvn/jvm.config", ".mvn/wrapper/maven-wrapper.properties")
			case "gradle", "gradlew":
				// test { enabled = false } in build.gradle (compared without
				// its dependencies blocks, gradleJudge), a property or a
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

// runnerConfigFiles are the runner configurations with a fixed name, at
// the top of the repository, for the agent's prompt.
func runnerConfigFiles(gs []gates.Gate) []string {
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

// gateReading returns the first gate whose test runner reads p, "".
func gateReading(gs []gates.Gate, p string) string {
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

// commandWords splits a shell command into its words, roughly: enough to
// find the programs and files it names.
func commandWords(cmd string) []string {
	return strings.FieldsFunc(cmd, func(c rune) bool {
		return strings.ContainsRune(" \t\n;|&()<>`'\"=", c)
	})
}

// judgeUnchanged reports whether a change to a runner's configuration
// leaves what the runner runs alone: a package.json whose scripts and test
// runner sections are the same (a new dependency is ordinary work). Other
// configuration files are the runner's own, so any change counts.
func (r *runner) judgeUnchanged(ctx context.Context, p string) bool {
	judge := packageJudge
	switch path.Base(p) {
	case "package.json":
	case "go.mod":
		judge = goModJudge
	case "pyproject.toml":
		judge = pyprojectJudge
	case "setup.cfg":
		judge = setupCfgJudge
	case "Cargo.toml":
		judge = cargoJudge
	case "pom.xml":
		judge = pomJudge
	case "build.gradle", "build.gradle.kts":
		judge = gradleJudge
	default:
		return false
	}
	before, err := r.repo.History().ShowFile(ctx, r.expect, p)
	if err != nil {
		return false
	}
	after, err := os.ReadFile(relJoin(r.repo.Root, p))
	if err != nil {
		return false
	}
	a, okA := judge(before)
	b, okB := judge(after)
	return okA && okB && bytes.Equal(a, b)
}

// packageJudge is the part of a package.json that decides what `npm test`
// and friends run, canonically encoded.
func packageJudge(data []byte) ([]byte, bool) {
	var pkg map[string]json.RawMessage
	if json.Unmarshal(data, &pkg) != nil {
		return nil, false
	}
	judge := map[string]any{}
	for _, k := range []string{"scripts", "jest", "mocha", "ava", "vitest", "workspaces", "type"} {
		if raw, ok := pkg[k]; ok {
			var v any
			if json.Unmarshal(raw, &v) != nil {
				return nil, false
			}
			judge[k] = v
		}
	}
	out, err := json.Marshal(judge) // map keys sorted: canonical
	return out, err == nil
}

// vendorUpdates says which vendored files a task may change: those of a
// module whose required version it changed or added in go.mod, and
// vendor/modules.txt when any requirement changed — what `go get` +
// `go mod vendor` do. A vendored file changed under an unchanged
// requirement is an edit of the dependency itself. Read once per
// verification: go mod vendor changes hundreds of files.
type vendorUpdates struct {
	changed map[string]bool // module paths whose requirement differs
	modules []string        // the modules vendor/modules.txt lists
}

// vendorUpdates compares go.mod's requirements at the task's start and now.
func (r *runner) vendorUpdates(ctx context.Context) vendorUpdates {
	before, _ := r.repo.History().ShowFile(ctx, r.expect, "go.mod")
	after, _ := os.ReadFile(relJoin(r.repo.Root, "go.mod"))
	old, now := requirements(before), requirements(after)
	u := vendorUpdates{changed: map[string]bool{}}
	for m, v := range now {
		if old[m] != v {
			u.changed[m] = true
		}
	}
	for m := range old {
		if _, ok := now[m]; !ok {
			u.changed[m] = true
		}
	}
	list, _ := os.ReadFile(relJoin(r.repo.Root, "vendor/modules.txt"))
	for _, l := range strings.Split(string(list), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "#" {
			u.modules = append(u.modules, f[1])
		}
	}
	return u
}

// allows reports whether the vendored file p (vendor/...) came with a
// requirement change.
func (u vendorUpdates) allows(p string) bool {
	if p == "vendor/modules.txt" {
		return len(u.changed) > 0
	}
	mod := ""
	for _, m := range u.modules {
		if strings.HasPrefix(strings.TrimPrefix(p, "vendor/"), m+"/") && len(m) > len(mod) {
			mod = m
		}
	}
	return mod != "" && u.changed[mod]
}

// requirements maps each module go.mod requires to its version.
func requirements(gomod []byte) map[string]string {
	out := map[string]string{}
	f, err := modfile.Parse("go.mod", gomod, nil)
	if err != nil {
		return out
	}
	for _, r := range f.Require {
		out[r.Mod.Path] = r.Mod.Version
	}
	return out
}

// goModJudge is the part of a go.mod that decides which code go test
// builds beyond the module's own: its replace directives (a new require is
// ordinary work), canonically encoded.
func goModJudge(data []byte) ([]byte, bool) {
	f, err := modfile.Parse("go.mod", data, nil) // ParseLax drops replace directives
	if err != nil {
		return nil, false
	}
	var reps []string
	for _, r := range f.Replace {
		reps = append(reps, r.Old.String()+" => "+r.New.String())
	}
	slices.Sort(reps)
	out, err := json.Marshal(reps)
	return out, err == nil
}

// pyprojectJudge is the part of a pyproject.toml pytest reads
// ([tool.pytest.ini_options], and [tool.pytest] of pytest 9): addopts =
// "--collect-only" passes every run. Dependencies and other tools'
// settings are ordinary work.
func pyprojectJudge(data []byte) ([]byte, bool) {
	var doc struct {
		Tool struct {
			Pytest any `toml:"pytest"`
		} `toml:"tool"`
	}
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return nil, false
	}
	out, err := json.Marshal(doc.Tool.Pytest) // map keys sorted: canonical
	return out, err == nil
}

// cargoJudge is the part of a Cargo.toml that decides what cargo test
// runs and with which code, canonically encoded: the package's autotests
// and autolib, the [lib] table, every [[test]], the test and harness keys
// of [[bin]] targets, [features].default (tests behind a feature), [patch]
// and [replace], the workspace's members, and [profile.test]. New
// dependencies, binaries and metadata are ordinary work.
func cargoJudge(data []byte) ([]byte, bool) {
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return nil, false
	}
	table := func(v any) map[string]any { m, _ := v.(map[string]any); return m }
	judge := map[string]any{}
	pkg := table(doc["package"])
	for _, k := range []string{"autotests", "autolib"} {
		if v, ok := pkg[k]; ok {
			judge["package."+k] = v
		}
	}
	for _, k := range []string{"lib", "test", "patch", "replace"} {
		if v, ok := doc[k]; ok {
			judge[k] = v
		}
	}
	if bins, ok := doc["bin"].([]map[string]any); ok {
		for _, b := range bins {
			for _, k := range []string{"test", "harness"} {
				if v, ok := b[k]; ok {
					judge[fmt.Sprintf("bin.%v.%s", b["name"], k)] = v
				}
			}
		}
	}
	if v, ok := table(doc["features"])["default"]; ok {
		judge["features.default"] = v
	}
	ws := table(doc["workspace"])
	for _, k := range []string{"members", "exclude", "default-members"} {
		if v, ok := ws[k]; ok {
			judge["workspace."+k] = v
		}
	}
	if v, ok := table(doc["profile"])["test"]; ok {
		judge["profile.test"] = v
	}
	out, err := json.Marshal(judge) // map keys sorted: canonical
	return out, err == nil
}

// pomJudge is a pom.xml without its comments, its dependency lists
// (<dependencies>, <dependencyManagement>) and the spacing between tags:
// a new dependency is ordinary work, anything else in the build (a
// skipTests property, the surefire plugin's configuration) is the judge.
func pomJudge(data []byte) ([]byte, bool) {
	s := xmlComment.ReplaceAllString(string(data), "")
	s = pomDeps.ReplaceAllString(s, "")
	s = pomDepMgmt.ReplaceAllString(s, "")
	return []byte(strings.Join(strings.Fields(s), " ")), true
}

var (
	xmlComment = regexp.MustCompile(`(?s)<!--.*?-->`)
	pomDeps    = regexp.MustCompile(`(?s)<dependencies>.*?</dependencies>`)
	pomDepMgmt = regexp.MustCompile(`(?s)<dependencyManagement>.*?</dependencyManagement>`)
)

// gradleJudge is a Gradle build script without its comments, its
// dependencies { } blocks and its spacing: a new dependency is ordinary
// work; test { enabled = false }, an exclude or a new task wiring is the
// judge.
func gradleJudge(data []byte) ([]byte, bool) {
	s := gradleComment.ReplaceAllString(string(data), "")
	var b strings.Builder
	for {
		loc := gradleDeps.FindStringIndex(s)
		if loc == nil {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:loc[0]])
		depth, i := 1, loc[1]
		for ; i < len(s) && depth > 0; i++ {
			switch s[i] {
			case '{':
				depth++
			case '}':
				depth--
			}
		}
		s = s[i:]
	}
	return []byte(strings.Join(strings.Fields(b.String()), " ")), true
}

var (
	// A // after a colon is a URL's (https://...), not a comment.
	gradleComment = regexp.MustCompile(`(?s)/\*.*?\*/|(?m)(^|[ \t;{}])//[^\n]*`)
	gradleDeps    = regexp.MustCompile(`\bdependencies\s*\{`)
)

// setupCfgJudge is setup.cfg's [tool:pytest] section, as written.
func setupCfgJudge(data []byte) ([]byte, bool) {
	var sec []string
	in := false
	for _, l := range strings.Split(string(data), "\n") {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "[") {
			in = t == "[tool:pytest]"
			continue
		}
		if in {
			sec = append(sec, strings.TrimRight(l, " \t\r"))
		}
	}
	return []byte(strings.TrimSpace(strings.Join(sec, "\n"))), true
}

// takesOverTests says why a new test file decides whether the other tests
// run at all ("" when it does not): a Go TestMain can exit 0 before any
// test, a conftest.py can deselect or skip every test. New tests add to
// the judge; these replace it.
func takesOverTests(abs string) string {
	switch {
	case path.Base(filepath.ToSlash(abs)) == "conftest.py":
		return "a pytest plugin: it can skip every test"
	case strings.HasSuffix(abs, "_test.go"):
		b, err := os.ReadFile(abs)
		if err == nil && goTestMain.Match(b) {
			return "a Go TestMain: it decides whether the package's tests run"
		}
	}
	return ""
}

var goTestMain = regexp.MustCompile(`(?m)^func\s+TestMain\s*\(`)
