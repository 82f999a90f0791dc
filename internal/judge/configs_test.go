package judge

import "testing"

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
