package judge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"golang.org/x/mod/modfile"
)

// A change to a test runner's configuration file is compared on the
// parts that decide what the runner runs, each canonicalised by a judge
// of its own: ordinary work (a new dependency) leaves them alone. Which
// files a gate's runner reads is the gates' (gaterun.GateReading).

// ConfigUnchanged reports whether a change to a runner's configuration p
// leaves what the runner runs alone: a package.json whose scripts and test
// runner sections are the same (a new dependency is ordinary work). Other
// configuration files are the runner's own, so any change counts. read
// gives p's bytes before and after the change, and is called only for a
// file whose parts can be compared.
func ConfigUnchanged(p string, read func(p string) (before, after []byte, err error)) bool {
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
	before, after, err := read(p)
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

// VendorUpdates says which vendored files a task may change: those of a
// module whose required version it changed or added in go.mod, and
// vendor/modules.txt when any requirement changed — what `go get` +
// `go mod vendor` do. A vendored file changed under an unchanged
// requirement is an edit of the dependency itself. Read once per
// verification: go mod vendor changes hundreds of files.
type VendorUpdates struct {
	changed map[string]bool // module paths whose requirement differs
	modules []string        // the modules vendor/modules.txt lists
}

// NewVendorUpdates compares go.mod's requirements at the task's start
// (before) and now (after); list is vendor/modules.txt now.
func NewVendorUpdates(before, after, list []byte) VendorUpdates {
	old, now := requirements(before), requirements(after)
	u := VendorUpdates{changed: map[string]bool{}}
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
	for _, l := range strings.Split(string(list), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "#" {
			u.modules = append(u.modules, f[1])
		}
	}
	return u
}

// Allows reports whether the vendored file p (vendor/...) came with a
// requirement change.
func (u VendorUpdates) Allows(p string) bool {
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
