package gaterun

import (
	"reflect"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/testreport"
)

func TestTestGatesReportSetting(t *testing.T) {
	junit := gates.Report{Kind: gates.ReportJUnit, Files: "target/surefire-reports/*.xml"}
	sel := []gates.Gate{
		{Name: "mvn", Command: "mvn -q test", Report: junit},
		{Name: "go", Command: "go test ./...", Report: gates.Report{Kind: gates.ReportGoJSON}},
		{Name: "none", Command: "go test ./...", Report: gates.Report{Kind: gates.ReportNone}},
		{Name: "inferred", Command: "go test ./..."},
		{Name: "script", Command: "sh ci/test.sh"},
	}
	tgs, plain := TestGates(sel, t.TempDir(), "T001")
	got := map[string]string{}
	for _, tg := range tgs {
		got[tg.Name] = tg.kind + " " + tg.Command
	}
	want := map[string]string{
		"mvn":      "junit mvn -q test",     // run as written
		"go":       "go-json go test ./...", // no -json added: the gate said where its report is
		"inferred": "go-json go test -json ./...",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("test gates = %q\nwant %q", got, want)
	}
	if len(plain) != 2 || plain[0].Name != "none" || plain[1].Name != "script" {
		t.Errorf("plain = %+v, want none and script", plain)
	}
	// A changed report setting never reuses another's baseline.
	other := sel[0]
	other.Report.Files = "build/*.xml"
	o, _ := TestGates([]gates.Gate{other}, t.TempDir(), "T001")
	if o[0].Key() == tgs[0].Key() {
		t.Error("two report settings share a baseline key")
	}
}

// The JUnit files a gate's glob matches after its run are merged into one
// report; none matching, or one that is not XML, fails it with the reason.
func TestReadJUnitGlob(t *testing.T) {
	tg := TestGate{Gate: gates.Gate{Name: "unit", Report: gates.Report{Kind: gates.ReportJUnit, Files: "**/surefire-reports/*.xml"}}, kind: testreport.KindJUnit}
	dir := t.TempDir()
	gittest.WriteFile(t, dir, "core/target/surefire-reports/TEST-a.CoreTest.xml",
		`<testsuite name="a.CoreTest"><testcase classname="a.CoreTest" name="adds"/></testsuite>`)
	gittest.WriteFile(t, dir, "cli/target/surefire-reports/TEST-a.CliTest.xml",
		`<testsuite name="a.CliTest" failures="1"><testcase classname="a.CliTest" name="parses"><failure/></testcase></testsuite>`)
	gittest.WriteFile(t, dir, "cli/target/surefire-reports/TEST-a.CliTest.txt", "not a report")
	rep := tg.Read(dir, "")
	var ids []string
	for _, x := range rep.Tests {
		ids = append(ids, x.ID+"="+string(x.Outcome))
	}
	if got, want := strings.Join(ids, " "), "a.CliTest.parses=fail a.CoreTest.adds=pass"; got != want || rep.Failed {
		t.Errorf("merged = %s (failed %v), want %s", got, rep.Failed, want)
	}

	if rep := tg.Read(t.TempDir(), ""); !noReport(rep) || rep.Notes[0] != "the gate's report **/surefire-reports/*.xml was not written" {
		t.Errorf("no files: %+v", rep)
	}
	gittest.WriteFile(t, dir, "x/surefire-reports/broken.xml", "<testsuite><testcase")
	if rep := tg.Read(dir, ""); !rep.Failed || !strings.Contains(rep.Notes[0], "x/surefire-reports/broken.xml is not JUnit XML") {
		t.Errorf("a broken file: failed %v, notes %q", rep.Failed, rep.Notes)
	}
}
