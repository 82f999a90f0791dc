package executor

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fsutil"
	"github.com/planx-dev/planx/internal/testreport"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/judge"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/runstate"
	"golang.org/x/mod/modfile"
)

// An agent task is judged by what the user's tests say, test by test,
// against the same tests on the task's base commit (the SWE-bench rule):
// every test that passed there passes now (none failed, vanished or became
// skipped), at least one test ran, and no test fails now. An exit code the
// agent could force is not enough: a gate whose runner can report test by
// test (testreport.For) is run so that it does, and its report decides. A
// gate whose `report:` setting says where its report is runs as written
// and is read from there; `report: none` is judged by its exit code.

// testGate is a gate run for a report: the gate as configured, the gate
// as run (its command adjusted) and how to read the report.
type testGate struct {
	gates.Gate        // as run; Report set: the gate says where its report is
	orig       string // the configured command
	kind       string
	file       string // the report file planx named, for runners that write one ("" : the output)
}

// testGates splits sel into the gates whose runner reports test by test
// (adjusted to do so) and the rest; outDir/prefix name the report files.
func testGates(sel []gates.Gate, outDir, prefix string) (tgs []testGate, plain []gates.Gate) {
	for _, g := range sel {
		switch {
		case g.Fix || g.Report.Kind == gates.ReportNone:
			plain = append(plain, g)
			continue
		case !g.Report.IsZero(): // run as written; the kinds are testreport's
			tgs = append(tgs, testGate{Gate: g, orig: g.Command, kind: g.Report.Kind})
			continue
		}
		kind, adjusted, ok := testreport.For(g.Command)
		if !ok {
			plain = append(plain, g)
			continue
		}
		tg := testGate{Gate: g, orig: g.Command, kind: kind}
		if strings.Contains(adjusted, testreport.ReportPlaceholder) {
			tg.file = filepath.Join(outDir, prefix+"-"+g.Name+"-report.xml")
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

// key names the gate's reports: its name and a hash of the command (and
// of its report: setting), so a changed command never reuses another's
// baseline.
func (tg testGate) key() string {
	s := tg.kind + "\x00" + tg.orig
	if tg.declared() {
		s += "\x00" + tg.Report.String()
	}
	h := sha256.Sum256([]byte(s))
	return tg.Name + "-" + hex.EncodeToString(h[:6])
}

// declared says the gate's report: setting names its report: one that is
// missing fails the gate, whatever the exit code and whatever the base
// gave.
func (tg testGate) declared() bool { return !tg.Report.IsZero() }

// read parses the report of a run of tg in dir whose combined output is at
// out.
func (tg testGate) read(dir, out string) testreport.Report {
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
func (tg testGate) readFiles(dir string) testreport.Report {
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

// reportBook keeps the test reports of a run by the commit whose tree they
// judged, under the run's directory, so that a task's baseline is usually
// the report of the task before it (one gate run per task) and a resume
// finds it again.
type reportBook struct {
	dir     string
	pending map[string]testreport.Report // this task's reports, until its commit
}

func (r *runner) reports() *reportBook {
	if r.testReports == nil {
		r.testReports = &reportBook{dir: filepath.Join(runstate.RunDir(r.repo, r.st.RunID), "reports")}
	}
	return r.testReports
}

func (b *reportBook) path(sha gitops.SHA, key string) string {
	return filepath.Join(b.dir, string(sha)+"-"+key+".json")
}

func (b *reportBook) get(sha gitops.SHA, key string) (testreport.Report, bool) {
	var rep testreport.Report
	data, err := os.ReadFile(b.path(sha, key))
	if err != nil || json.Unmarshal(data, &rep) != nil {
		return rep, false
	}
	return rep, true
}

func (b *reportBook) put(sha gitops.SHA, key string, rep testreport.Report) {
	data, err := json.Marshal(rep)
	if err != nil {
		return
	}
	if os.MkdirAll(b.dir, 0o755) == nil {
		_ = fsutil.WriteAtomic(b.path(sha, key), data, 0o644)
	}
}

// hold keeps a report of the task being judged until its commit.
func (b *reportBook) hold(key string, rep testreport.Report) {
	if b.pending == nil {
		b.pending = map[string]testreport.Report{}
	}
	b.pending[key] = rep
}

// committed files the held reports under the task's commit: the next
// task's baseline.
func (b *reportBook) committed(sha gitops.SHA) {
	for k, rep := range b.pending {
		b.put(sha, k, rep)
	}
	b.pending = nil
}

// baseline returns the reports of tgs on the base commit: from the book,
// or by running them in a clean checkout of it.
func (tu *turn) baseline(ctx context.Context, tgs []testGate) (map[string]testreport.Report, error) {
	r, t := tu.r, tu.t
	base := r.expect
	out := map[string]testreport.Report{}
	var missing []testGate
	for _, tg := range tgs {
		if rep, ok := r.reports().get(base, tg.key()); ok {
			out[tg.Name] = rep
		} else {
			missing = append(missing, tg)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	wt, err := tu.checkout(ctx, base, "base")
	if err != nil {
		return nil, err
	}
	defer wt.release(ctx)
	dir := runstate.RunDir(r.repo, r.st.RunID)
	bases, _ := testGates(gatesOf(missing), dir, string(t.ID)+"-base")
	r.out.Println("      baseline: %s on the base commit %s", strings.Join(names(bases), ", "), base.Short())
	results, err := gates.Run(ctx, adjusted(bases), gates.RunOptions{Dir: wt.dir, Env: r.gateEnv(), OutDir: dir,
		Task: planparse.TaskID(string(t.ID) + "-base"), BlastRadius: t.BlastRadius, Started: r.pids().ChildStarted,
		Begin: func(g gates.Gate) { r.out.Phase("gate " + textsafe.Line(g.Name) + " at the base") }})
	r.pids().ChildDone()
	if err != nil {
		return nil, err
	}
	for i, res := range results {
		rep := bases[i].read(wt.dir, res.OutputPath)
		r.reports().put(base, bases[i].key(), rep)
		out[res.Name] = rep
	}
	return out, nil
}

// judgeTests grades the results of tgs against their baselines, marking a
// gate whose tests say no as failed. It returns each gate's summary (for
// Planx-Tests), the reasons of the first that failed, and the gates whose
// only failing tests are the run's known failures (knownfail.go).
//
// own says the run holds the agent's own test changes, already graded
// without them by judgeRun: this run then only has to pass.
func (tu *turn) judgeTests(dir string, tgs []testGate, base map[string]testreport.Report, results []gates.Result, own bool) judgement {
	jd := judgement{tests: map[string]string{}, known: map[string][]string{}, vetoed: map[string]string{}}
	opt := testreport.Options{Declared: tu.declaredTestGroup()}
	for i := range results {
		res := &results[i]
		j := slices.IndexFunc(tgs, func(tg testGate) bool { return tg.Name == res.Name })
		if j < 0 {
			continue
		}
		rep := tgs[j].read(dir, res.OutputPath)
		tu.r.reports().hold(tgs[j].key(), rep)
		if !tgs[j].declared() && noReport(base[res.Name]) && noReport(rep) {
			jd.tests[res.Name] = "exit-code only (the runner gave no report, at the base either)"
			continue
		}
		v := testreport.Judge(base[res.Name], rep, opt)
		jd.tests[res.Name] = v.Summary()
		known, onlyKnown := tu.r.knownOnly(res.Name, rep)
		if own && (v.Now.Failed == 0 || onlyKnown) && !v.RunFailed && v.Now.Passed > 0 ||
			!own && v.OK() && (v.Now.Failed == 0 || onlyKnown) {
			if v.Now.Failed > 0 {
				jd.known[res.Name] = known
			}
			continue
		}
		if why := reportReasons(v, rep); onlyKnown && len(why) > 0 {
			jd.vetoed[res.Name] = why[0]
		}
		if res.Passed && jd.why == nil {
			jd.why = append(reportReasons(v, rep), failingTests(rep)...)
			if len(jd.why) == 0 {
				jd.why = []string{"the report shows a failure"}
			}
			jd.why = append([]string{fmt.Sprintf("gate %s exited %d, but its tests say no", res.Name, res.ExitCode)}, jd.why...)
		}
		res.Passed = false
	}
	return jd
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

// declaredTestGroup reports whether the task declared a test file of a
// report's group (a Go package, a Python module, a file): a test of that
// group may vanish, since the task may rewrite its own tests.
func (tu *turn) declaredTestGroup() func(string) bool {
	var files []string
	for _, f := range tu.t.Files {
		if judge.IsTestFile(f.Path) {
			files = append(files, f.Path)
		}
	}
	module := goModule(tu.r.repo.Root)
	return func(group string) bool {
		if group == "" {
			return len(files) > 0 // a runner that names no group (node's TAP)
		}
		for _, f := range files {
			dir := path.Dir(f)
			mod := strings.ReplaceAll(strings.TrimSuffix(f, path.Ext(f)), "/", ".")
			switch {
			case group == f, group == dir, group == mod, strings.HasPrefix(group, mod+"."):
				return true
			case module != "" && (group == module && dir == "." || group == module+"/"+dir):
				return true
			}
		}
		return false
	}
}

// goModule is the module path of root's go.mod, "" without one.
func goModule(root string) string {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if errors.Is(err, fs.ErrNotExist) || err != nil {
		return ""
	}
	return modfile.ModulePath(data)
}

// gatesOf are the gates of tgs as configured.
func gatesOf(tgs []testGate) []gates.Gate {
	out := make([]gates.Gate, len(tgs))
	for i, tg := range tgs {
		out[i] = tg.Gate
		out[i].Command = tg.orig
	}
	return out
}

// adjusted are the gates of tgs as they run, commands adjusted to report.
func adjusted(tgs []testGate) []gates.Gate {
	out := make([]gates.Gate, len(tgs))
	for i, tg := range tgs {
		out[i] = tg.Gate
	}
	return out
}

func names(tgs []testGate) []string {
	out := make([]string, len(tgs))
	for i, tg := range tgs {
		out[i] = tg.Name
	}
	return out
}
