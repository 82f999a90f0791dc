package gaterun

import (
	"slices"
	"testing"

	"github.com/planx-dev/planx/gates"
)

func TestGateScriptsNamesFilesNotPrograms(t *testing.T) {
	gs := []gates.Gate{
		{Name: "test", Command: "sh test.sh"},
		{Name: "lint", Command: "bash ./scripts/lint.sh --fix && go vet ./..."},
		{Name: "py", Command: `python -m pytest "tests/test_calc.py" {blast_radius}`},
		{Name: "mk", Command: "make check"},
		{Name: "abs", Command: "/usr/bin/true ../outside.sh $HOME/x.sh"},
	}
	got := GateScripts(gs)
	for _, want := range []string{"test.sh", "scripts/lint.sh", "tests/test_calc.py", "Makefile", "GNUmakefile"} {
		if !slices.Contains(got, want) {
			t.Errorf("GateScripts misses %q: %v", want, got)
		}
	}
	for _, not := range []string{"sh", "bash", "go", "...", "pytest", "check", "../outside.sh", "/usr/bin/true", "--fix"} {
		if slices.Contains(got, not) {
			t.Errorf("GateScripts has %q, a program, flag or path outside the repository: %v", not, got)
		}
	}
}

// Each runner family's configuration is read by the gates that start it.
func TestGateReading(t *testing.T) {
	gs := []gates.Gate{{Name: "rb", Command: "bundle exec rspec"}, {Name: "rake", Command: "bundle exec rake test"},
		{Name: "php", Command: "vendor/bin/phpunit"}, {Name: "net", Command: "dotnet test"}, {Name: "mvn", Command: "./mvnw -q test"},
		{Name: "gradle", Command: "./gradlew test"}, {Name: "cargo", Command: "cargo test --all"}}
	for p, want := range map[string]string{
		".rspec": "rb", "Rakefile": "rake", "phpunit.xml.dist": "php", "tests/unit.runsettings": "net",
		"Directory.Build.props": "net", "pom.xml": "mvn", ".mvn/maven.config": "mvn", "build.gradle.kts": "gradle",
		"gradle/wrapper/gradle-wrapper.properties": "gradle", "crates/calc/Cargo.toml": "cargo",
		"src/main.rs": "", "README.md": "", "lib/calc.rb": "",
	} {
		if got := GateReading(gs, p); got != want {
			t.Errorf("GateReading(%q) = %q, want %q", p, got, want)
		}
	}
}

// What a gate reaches is read through show (the base commit), never from
// a work tree: a script only the work tree has is not followed.
func TestGateReachReadsShow(t *testing.T) {
	base := map[string]string{
		"scripts/test.sh": "#!/bin/sh\n. scripts/lib.sh\n",
		"scripts/lib.sh":  "true\n",
		"package.json":    `{"scripts": {"test": "sh check.sh"}}`,
		"check.sh":        "exit 0\n",
	}
	show := func(p string) ([]byte, bool) {
		s, ok := base[p]
		return []byte(s), ok
	}
	got := GateReach([]gates.Gate{{Name: "unit", Command: "sh scripts/test.sh"}, {Name: "npm", Command: "npm test"}}, show)
	if want := []string{"check.sh", "scripts/lib.sh"}; !slices.Equal(got.Paths(), want) {
		t.Errorf("reach = %v, want %v", got.Paths(), want)
	}
	if got["scripts/lib.sh"] != "run by gate unit through scripts/test.sh" {
		t.Errorf("why scripts/lib.sh = %q", got["scripts/lib.sh"])
	}
}
