package gaterun

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/run/canary"
	"github.com/planx-dev/planx/internal/testreport"
)

// An agent task is judged by what the user's tests say, test by test,
// against the same tests on the task's base commit (the SWE-bench rule):
// every test that passed there passes now (none failed, vanished or became
// skipped), at least one test ran, and no test fails now. An exit code the
// agent could force is not enough: a gate whose runner can report test by
// test (testreport.For) is run so that it does, and its report decides. A
// gate whose `report:` setting says where its report is runs as written
// and is read from there; `report: none` is judged by its exit code.

// TestGate is a gate run for a report: the gate as configured, the gate
// as run (its command adjusted) and how to read the report.
type TestGate struct {
	gates.Gate        // as run; Report set: the gate says where its report is
	orig       string // the configured command
	kind       string
	file       string // the report file planx named, for runners that write one ("" : the output)
}

// TestGates splits sel into the gates whose runner reports test by test
// (adjusted to do so) and the rest; outDir/prefix name the report files.
func TestGates(sel []gates.Gate, outDir, prefix string) (tgs []TestGate, plain []gates.Gate) {
	for _, g := range sel {
		switch {
		case g.Fix || g.Report.Kind == gates.ReportNone:
			plain = append(plain, g)
			continue
		case !g.Report.IsZero(): // run as written; the kinds are testreport's
			tgs = append(tgs, TestGate{Gate: g, orig: g.Command, kind: g.Report.Kind})
			continue
		}
		kind, adjusted, ok := testreport.For(g.Command)
		if !ok {
			plain = append(plain, g)
			continue
		}
		tg := TestGate{Gate: g, orig: g.Command, kind: kind}
		if strings.Contains(adjusted, testreport.ReportPlaceholder) {
			// A directory of its own, emptied before each run (reportDirs)
			// and the one place outside its checkout a run in the judge's
			// space writes through: no run can leave a report for another.
			tg.file = filepath.Join(outDir, "reports", prefix+"-"+g.Name, "report.xml")
			var err error
			if adjusted, err = testreport.WithReport(adjusted, tg.file); err != nil {
				plain = append(plain, g)
				continue
			}
		}
		tg.Command = adjusted
		tgs = append(tgs, tg)
	}
	return tgs, plain
}

// Key names the gate's reports: its name and a hash of the command (and
// of its report: setting), so a changed command never reuses another's
// baseline.
func (tg TestGate) Key() string {
	s := tg.kind + "\x00" + tg.orig
	if tg.Declared() {
		s += "\x00" + tg.Report.String()
	}
	h := sha256.Sum256([]byte(s))
	return tg.Name + "-" + hex.EncodeToString(h[:6])
}

// reportDirs empties, or makes, the directories tgs's runners write their
// reports to (outside the checkout), and returns them.
func reportDirs(tgs []TestGate) ([]string, error) {
	var dirs []string
	for _, tg := range tgs {
		if tg.file == "" {
			continue
		}
		d := filepath.Dir(tg.file)
		if err := os.RemoveAll(d); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
		dirs = append(dirs, d)
	}
	return dirs, nil
}

// Declared says the gate's report: setting names its report: one that is
// missing fails the gate, whatever the exit code and whatever the base
// gave.
func (tg TestGate) Declared() bool { return !tg.Report.IsZero() }

// Read parses the report of a run of tg in dir whose combined output is at
// out.
func (tg TestGate) Read(dir, out string) testreport.Report {
	if tg.Report.Kind == gates.ReportJUnit {
		return tg.readFiles(dir)
	}
	p := out
	if tg.file != "" {
		p = tg.file
	}
	f, err := os.Open(p)
	if err != nil {
		return testreport.Report{Kind: tg.kind, Failed: true, Notes: []string{"no report: " + err.Error()}}
	}
	defer f.Close()
	rep, err := testreport.Parse(tg.kind, f)
	if err != nil {
		rep.Failed = true
		rep.Notes = append(rep.Notes, "unreadable report: "+err.Error())
	}
	return rep
}

// readFiles reads and merges the JUnit files the gate's glob matches in
// dir after its run (gates.Run removed those of earlier runs before it).
func (tg TestGate) readFiles(dir string) testreport.Report {
	missing := func(format string, args ...any) testreport.Report {
		return testreport.Report{Kind: testreport.KindJUnit, Failed: true, Notes: []string{fmt.Sprintf(format, args...)}}
	}
	files, err := tg.Report.ReportFiles(dir)
	switch {
	case err != nil:
		return missing("the gate's report %s could not be read: %v", tg.Report.Files, err)
	case len(files) == 0:
		return missing("the gate's report %s was not written", tg.Report.Files)
	}
	reps := make([]testreport.Report, 0, len(files))
	for _, name := range files {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			return missing("the gate's report %s could not be read: %v", name, err)
		}
		rep, err := testreport.ParseJUnit(bytes.NewReader(data))
		if err != nil {
			rep.Failed = true
			rep.Notes = append([]string{fmt.Sprintf("the gate's report %s is not JUnit XML: %v", name, err)}, rep.Notes...)
		}
		reps = append(reps, rep)
	}
	return testreport.Merge(testreport.KindJUnit, reps...)
}

// noReport says a run gave nothing to read: no test and a failure the
// report cannot account for (the gate's program is not the runner its
// command names, or wraps it). When the base's run gave nothing either, the
// gate is judged by its exit code; a runner that reported at the base and
// does not now fails the task.
func noReport(rep testreport.Report) bool {
	return len(rep.Tests) == 0 && rep.Failed
}

// reportReasons are why a run does not pass: when it gave nothing to read,
// why not (the gate's report was not written) rather than "no test ran".
func reportReasons(v testreport.Verdict, rep testreport.Report) []string {
	if noReport(rep) && len(rep.Notes) > 0 {
		return rep.Notes[:1]
	}
	return v.Reasons()
}

// failingTests names the first tests of rep that fail.
func failingTests(rep testreport.Report) []string {
	var out []string
	for _, t := range rep.Tests {
		if t.Outcome == testreport.Fail {
			if len(out) == 3 {
				return append(out, fmt.Sprintf("%d more tests fail", rep.Count(testreport.Fail)-3))
			}
			out = append(out, testreport.Display(t)+" fails")
		}
	}
	return out
}

// GatesOf are the gates of tgs as configured.
func GatesOf(tgs []TestGate) []gates.Gate {
	out := make([]gates.Gate, len(tgs))
	for i, tg := range tgs {
		out[i] = tg.Gate
		out[i].Command = tg.orig
	}
	return out
}

// Adjusted are the gates of tgs as they run, commands adjusted to report.
func Adjusted(tgs []TestGate) []gates.Gate {
	out := make([]gates.Gate, len(tgs))
	for i, tg := range tgs {
		out[i] = tg.Gate
	}
	return out
}

// Names are the names of tgs.
func Names(tgs []TestGate) []string {
	out := make([]string, len(tgs))
	for i, tg := range tgs {
		out[i] = tg.Name
	}
	return out
}

// canaryGates are tgs as their canaries know them (canary.Gate).
func canaryGates(tgs []TestGate) []canary.Gate {
	out := make([]canary.Gate, len(tgs))
	for i, tg := range tgs {
		out[i] = canary.Gate{Name: tg.Name, Lang: canary.Lang(tg.kind, tg.Declared())}
	}
	return out
}
