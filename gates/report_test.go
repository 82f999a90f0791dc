package gates

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestLoadConfigReport(t *testing.T) {
	dir := writeConfig(t, `gates:
  - name: unit
    command: mvn -q test
    report:
      junit: target/surefire-reports/*.xml
  - name: gradle
    command: ./gradlew test
    report: junit:**/build/test-results/test/*.xml
  - name: go
    command: ./ci/go-test.sh
    report: go-json
  - name: tap
    command: npm test
    report: tap
  - name: py
    command: ./runtests
    report: unittest
  - name: plain
    command: go test ./...
    report: none
  - name: inferred
    command: go test ./...
`)
	c, err := LoadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Report{
		{Kind: ReportJUnit, Files: "target/surefire-reports/*.xml"},
		{Kind: ReportJUnit, Files: "**/build/test-results/test/*.xml"},
		{Kind: ReportGoJSON},
		{Kind: ReportTAP},
		{Kind: ReportUnittest},
		{Kind: ReportNone},
		{},
	}
	var got []Report
	for _, g := range c.Gates {
		got = append(got, g.Report)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("reports = %+v\nwant %+v", got, want)
	}
}

func TestLoadConfigReportErrors(t *testing.T) {
	const head = "gates:\n  - name: t\n    command: x\n"
	cases := []struct{ name, text, msg string }{
		{"unknown kind", "    report: xunit\n", `report "xunit" is not one of go-json, tap, unittest, junit, none`},
		{"junit without files", "    report: junit\n", "report junit needs the files the command writes"},
		{"files on another kind", "    report: {tap: out.tap}\n", `report "tap" takes no files`},
		{"absolute", "    report: {junit: /tmp/r.xml}\n", "must be inside the checkout"},
		{"escapes", "    report: {junit: ../r/*.xml}\n", "must be inside the checkout"},
		{"not xml", "    report: {junit: 'reports/*'}\n", "must name .xml files"},
		{"bad glob", "    report: {junit: 'r/[.xml'}\n", "not a valid glob"},
		{"list", "    report: [junit]\n", "want a kind, or junit with its files"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := LoadConfig(writeConfig(t, head+c.text))
			if err == nil {
				t.Fatal("no error")
			}
			if s := err.Error(); !strings.Contains(s, ConfigFile+":4:") || !strings.Contains(s, c.msg) ||
				!strings.Contains(s, "write go-json, tap, unittest or none, or junit") {
				t.Errorf("err = %v\nwant line 4, %q and the accepted values", err, c.msg)
			}
		})
	}
}

// The report survives the run state's JSON (the pinned judge), and a gate
// without one marshals as before.
func TestReportJSON(t *testing.T) {
	g := Gate{Name: "unit", Command: "mvn test", Report: Report{Kind: ReportJUnit, Files: "target/*.xml"}}
	data, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	var back Gate
	if err := json.Unmarshal(data, &back); err != nil || back != g {
		t.Errorf("round trip = %+v, %v; want %+v", back, err, g)
	}
	data, _ = json.Marshal(Gate{Name: "t", Command: "x"})
	if strings.Contains(string(data), "Report") {
		t.Errorf("a gate without a report marshals as %s", data)
	}
}

func TestMergeKeepsReport(t *testing.T) {
	cfg := []Gate{{Name: "unit", Command: "mvn test", Report: Report{Kind: ReportJUnit, Files: "target/*.xml"}}}
	m := Merge(cfg, nil, []Gate{{Name: "unit", Command: "mvn test -Dtest=Calc"}})
	if m[0].Report != cfg[0].Report || m[0].Command != "mvn test -Dtest=Calc" {
		t.Errorf("merged = %+v", m[0])
	}
}

func touch(t *testing.T, dir string, files ...string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("<testsuite/>"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestReportFiles(t *testing.T) {
	dir := t.TempDir()
	touch(t, dir, "junit.xml", "a/build/test-results/test/T1.xml", "b/c/build/test-results/test/T2.xml",
		"build/test-results/test/T0.xml", "build/test-results/test/notes.txt", ".git/build/test-results/test/X.xml")
	if err := os.Symlink(filepath.Join(dir, "junit.xml"), filepath.Join(dir, "build/test-results/test/link.xml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "a/build/test-results/test"), filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		glob string
		want []string
	}{
		{"junit.xml", []string{"junit.xml"}},
		{"linked/*.xml", []string{"linked/T1.xml"}},
		{"*.xml", []string{"junit.xml"}},
		{"build/test-results/test/*.xml", []string{"build/test-results/test/T0.xml", "build/test-results/test/link.xml"}},
		{"**/build/test-results/test/*.xml", []string{"a/build/test-results/test/T1.xml",
			"b/c/build/test-results/test/T2.xml", "build/test-results/test/T0.xml", "build/test-results/test/link.xml"}},
		{"missing/*.xml", nil},
	} {
		got, err := Report{Kind: ReportJUnit, Files: c.glob}.ReportFiles(dir)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %q, %v; want %q", c.glob, got, err, c.want)
		}
	}
}

// Run removes a report left by an earlier run before the gate runs, a
// link as a link, and leaves other files alone.
func TestRunClearsStaleReport(t *testing.T) {
	dir := t.TempDir()
	touch(t, dir, "reports/old.xml", "reports/keep.txt", "elsewhere.xml")
	if err := os.Symlink("../elsewhere.xml", filepath.Join(dir, "reports/link.xml")); err != nil {
		t.Fatal(err)
	}
	g := Gate{Name: "t", Command: "test ! -e reports/old.xml && test ! -L reports/link.xml && test -e reports/keep.txt && test -e elsewhere.xml",
		Report: Report{Kind: ReportJUnit, Files: "reports/*.xml"}}
	rs, err := Run(t.Context(), []Gate{g}, RunOptions{Dir: dir})
	if err != nil || !rs[0].Passed {
		t.Fatalf("Run = %+v, %v; want the stale report gone before the command", rs, err)
	}
}
