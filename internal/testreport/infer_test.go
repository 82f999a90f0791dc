package testreport

import "testing"

func TestFor(t *testing.T) {
	tests := []struct {
		command, kind, adjusted string
		ok                      bool
	}{
		{"go test ./...", KindGoJSON, "go test -json ./...", true},
		{"go test {blast_radius}", KindGoJSON, "go test -json {blast_radius}", true},
		{"CGO_ENABLED=0 GOFLAGS=-mod=mod go test -race -run 'TestA|TestB' ./pkg/...", KindGoJSON, "CGO_ENABLED=0 GOFLAGS=-mod=mod go test -json -race -run 'TestA|TestB' ./pkg/...", true},
		{"go  test   -count=1 ./x", KindGoJSON, "go  test -json   -count=1 ./x", true},
		{"go test -json ./...", KindGoJSON, "go test -json ./...", true},
		{"go test ./x -args -json", KindGoJSON, "go test -json ./x -args -json", true},
		{"go test -json=false ./...", "", "", false},
		{"/usr/local/go/bin/go test ./...", KindGoJSON, "/usr/local/go/bin/go test -json ./...", true},
		{"go vet ./...", "", "", false},
		{"go build ./...", "", "", false},
		{"cd sub && go test ./...", "", "", false},
		{"go test ./... && go vet ./...", "", "", false},
		{"go test ./... | tee out.txt", "", "", false},
		{"go test ./...; echo done", "", "", false},
		{"go test ./... || true", "", "", false},
		{"go test ./... > out.txt 2>&1", "", "", false},
		{"go test $(go list ./... | grep -v vendor)", "", "", false},
		{"go test $PKGS", "", "", false},
		{"(go test ./...)", "", "", false},
		{"! go test ./...", "", "", false},
		{"go test ./... &", "", "", false},
		{"go test ./...\ngo vet ./...", "", "", false},
		{"go test 'unterminated", "", "", false},
		{"", "", "", false},

		{"python3 -m unittest", KindUnittest, "python3 -m unittest -v", true},
		{"python -m unittest tests.test_calc", KindUnittest, "python -m unittest -v tests.test_calc", true},
		{"python3.11 -m unittest discover -s tests", KindUnittest, "python3.11 -m unittest discover -v -s tests", true},
		{"PYTHONPATH=src python3 -m unittest -b", KindUnittest, "PYTHONPATH=src python3 -m unittest -v -b", true},
		{"python3 -m unittest -v", KindUnittest, "python3 -m unittest -v", true},
		{"python3 -m unittest --quiet", "", "", false},
		{"python3 -m unittest -q tests", "", "", false},
		{"python3 tests/run.py", "", "", false},

		{"pytest", KindJUnit, "pytest --junitxml={report}", true},
		{"pytest -x tests/", KindJUnit, "pytest --junitxml={report} -x tests/", true},
		{"python3 -m pytest -q", KindJUnit, "python3 -m pytest --junitxml={report} -q", true},
		{"py.test", KindJUnit, "py.test --junitxml={report}", true},
		{"pytest --junitxml=out.xml", "", "", false},
		{"pytest --junit-xml out.xml", "", "", false},
		{"pytest -p no:junitxml", "", "", false},

		{"node --test", KindTAP, "node --test --test-reporter=tap", true},
		{"node --test test/", KindTAP, "node --test --test-reporter=tap test/", true},
		{"node --experimental-vm-modules --test", KindTAP, "node --experimental-vm-modules --test --test-reporter=tap", true},
		{"node --test --test-reporter=tap", KindTAP, "node --test --test-reporter=tap", true},
		{"node --test --test-reporter=spec", "", "", false},
		{"node --test --test-reporter=junit --test-reporter-destination=out.xml", "", "", false},
		{"node test.js --test", "", "", false},
		{"node index.js", "", "", false},

		{"npm test", "", "", false},
		{"make test", "", "", false},
	}
	for _, tt := range tests {
		kind, adjusted, ok := For(tt.command)
		if kind != tt.kind || adjusted != tt.adjusted || ok != tt.ok {
			t.Errorf("For(%q) = %q, %q, %v; want %q, %q, %v", tt.command, kind, adjusted, ok, tt.kind, tt.adjusted, tt.ok)
		}
	}
}

// TestWithReport checks that the path comes back whole when the shell
// reads the command, spaces and quotes included.
func TestWithReport(t *testing.T) {
	for _, file := range []string{"/tmp/planx-report.xml", "/tmp/my dir/it's.xml", `/tmp/$HOME/"x"`} {
		got, err := WithReport("pytest --junitxml={report} -x", file)
		if err != nil {
			t.Fatal(err)
		}
		c, ok := parseGateCommand(got)
		if !ok || len(c.args) != 3 || c.args[1].s != "--junitxml="+file || c.args[2].s != "-x" {
			t.Errorf("WithReport(%q) = %q: the shell does not read the path back", file, got)
		}
	}
	if _, err := WithReport("pytest --junitxml={report}", "a\x00b"); err == nil {
		t.Error("a path with a NUL byte was quoted")
	}
}
