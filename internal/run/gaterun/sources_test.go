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

// The judge parts of runner configurations: equal when only ordinary work
// changed, different when what the runner runs changed.
func TestRunnerJudges(t *testing.T) {
	for _, tc := range []struct {
		name        string
		judge       func([]byte) ([]byte, bool)
		before      string
		same, other []string
	}{
		{"go.mod", goModJudge,
			"module m\n\ngo 1.22\n\nrequire a.b/c v1.0.0\n",
			[]string{"module m\n\ngo 1.22\n\nrequire (\n\ta.b/c v1.0.0\n\ta.b/d v1.1.0\n)\n"},
			[]string{"module m\n\ngo 1.22\n\nrequire a.b/c v1.0.0\n\nreplace a.b/c => ./fake\n", "module m\nreplace (\n\ta.b/c v1.0.0 => a.b/x v1.0.0\n)\n"}},
		{"pyproject.toml", pyprojectJudge,
			"[project]\nname = \"x\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n",
			[]string{"[project]\nname = \"x\"\ndependencies = [\"attrs\"]\n\n[tool.pytest.ini_options]\ntestpaths = [ \"tests\" ]\n\n[tool.ruff]\nline-length = 100\n"},
			[]string{"[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\naddopts = \"--co\"\n", "[project]\nname = \"x\"\n"}},
		{"setup.cfg", setupCfgJudge,
			"[metadata]\nname = x\n\n[tool:pytest]\ntestpaths = tests\n",
			[]string{"[metadata]\nname = y\n\n[tool:pytest]\ntestpaths = tests\n\n[flake8]\nmax-line-length = 100\n"},
			[]string{"[metadata]\nname = x\n\n[tool:pytest]\ntestpaths = tests\naddopts = --co\n"}},
		{"pom.xml", pomJudge,
			"<project>\n  <artifactId>calc</artifactId>\n  <dependencies>\n    <dependency><artifactId>junit</artifactId></dependency>\n  </dependencies>\n</project>\n",
			[]string{
				"<project>\n  <!-- the calculator -->\n  <artifactId>calc</artifactId>\n  <dependencies>\n    <dependency><artifactId>junit</artifactId></dependency>\n    <dependency><artifactId>guava</artifactId></dependency>\n  </dependencies>\n  <dependencyManagement><dependencies/></dependencyManagement>\n</project>\n",
			},
			[]string{
				"<project>\n  <artifactId>calc</artifactId>\n  <properties><skipTests>true</skipTests></properties>\n</project>\n",
				"<project>\n  <artifactId>calc</artifactId>\n  <build><plugins><plugin><artifactId>maven-surefire-plugin</artifactId><configuration><testFailureIgnore>true</testFailureIgnore></configuration></plugin></plugins></build>\n</project>\n",
			}},
		{"build.gradle", gradleJudge,
			"plugins { id 'java' }\nrepositories { maven { url 'https://repo.example.com/m2' } }\ndependencies {\n  testImplementation 'junit:junit:4.13'\n}\n",
			[]string{
				"plugins { id 'java' } // the calculator\nrepositories { maven { url 'https://repo.example.com/m2' } }\n\ndependencies {\n  testImplementation 'junit:junit:4.13'\n  implementation('com.google.guava:guava:33.0') { exclude group: 'x' }\n}\n",
			},
			[]string{
				"plugins { id 'java' }\nrepositories { maven { url 'https://repo.example.com/m2' } }\ndependencies {\n  testImplementation 'junit:junit:4.13'\n}\ntest { enabled = false }\n",
				"plugins { id 'java' }\nrepositories { maven { url 'https://repo.example.com/m2' }; test { exclude '**' } }\ndependencies {\n  testImplementation 'junit:junit:4.13'\n}\n",
			}},
		{"Cargo.toml", cargoJudge,
			"[package]\nname = \"calc\"\nversion = \"0.1.0\"\n\n[[bin]]\nname = \"calc\"\npath = \"src/main.rs\"\n\n[dependencies]\nserde = \"1\"\n",
			[]string{
				"[package]\nname = \"calc\"\nversion = \"0.2.0\"\ndescription = \"x\"\n\n[[bin]]\nname = \"calc\"\npath = \"src/main.rs\"\n\n[[bin]]\nname = \"tool\"\n\n[dependencies]\nserde = \"1\"\nitertools = \"0.12\"\n\n[dev-dependencies]\nproptest = \"1\"\n",
			},
			[]string{
				"[package]\nname = \"calc\"\nversion = \"0.1.0\"\nautotests = false\n",
				"[package]\nname = \"calc\"\nversion = \"0.1.0\"\n\n[lib]\ntest = false\n",
				"[package]\nname = \"calc\"\n\n[[test]]\nname = \"mul\"\nharness = false\n",
				"[package]\nname = \"calc\"\n\n[[bin]]\nname = \"calc\"\npath = \"src/main.rs\"\ntest = false\n",
				"[package]\nname = \"calc\"\n\n[patch.crates-io]\nserde = { path = \"fake\" }\n",
				"[package]\nname = \"calc\"\n\n[features]\ndefault = []\n",
				"[workspace]\nmembers = []\n",
				"[package]\nname = \"calc\"\n\n[profile.test]\ndebug-assertions = false\n",
			}},
	} {
		a, ok := tc.judge([]byte(tc.before))
		if !ok {
			t.Fatalf("%s: before does not parse", tc.name)
		}
		for _, s := range tc.same {
			if b, ok := tc.judge([]byte(s)); !ok || string(a) != string(b) {
				t.Errorf("%s: %q judged different (%s vs %s)", tc.name, s, a, b)
			}
		}
		for _, s := range tc.other {
			if b, ok := tc.judge([]byte(s)); ok && string(a) == string(b) {
				t.Errorf("%s: %q judged the same", tc.name, s)
			}
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

// A vendored file may change with its module's requirement, and
// modules.txt with any.
func TestVendorUpdates(t *testing.T) {
	before := []byte("module m\n\nrequire (\n\ta.b/c v1.0.0\n\ta.b/d v1.0.0\n)\n")
	after := []byte("module m\n\nrequire (\n\ta.b/c v1.1.0\n\ta.b/d v1.0.0\n)\n")
	list := []byte("# a.b/c v1.1.0\n## explicit\na.b/c\n# a.b/d v1.0.0\na.b/d\n")
	u := NewVendorUpdates(before, after, list)
	for p, want := range map[string]bool{"vendor/a.b/c/x.go": true, "vendor/a.b/d/x.go": false, "vendor/modules.txt": true, "vendor/e/x.go": false} {
		if u.Allows(p) != want {
			t.Errorf("Allows(%q) = %v, want %v", p, !want, want)
		}
	}
	if NewVendorUpdates(before, before, list).Allows("vendor/modules.txt") {
		t.Error("modules.txt changed with no requirement changed is allowed")
	}
}
