package advsuite

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Adversarial is the test (TestAdversarial) of internal/advsuite/<group>,
// one of the suite's test binaries (groups): it runs every case of the
// group's languages in testdata/agents through planx and audits it (see
// testdata/README.md). The outcome of each must be the one
// testdata/expect.txt records, alone (TestAdversarial/case/<case>) and as
// the last task of a parallel wave (TestAdversarial/wave/<case>, the
// group's cases of waveCases), and a case whose outcome in a wave is its
// outcome alone must have been refused for the same reason (waveWhy).
// testdata is the suite's directory of that name, from the test's working
// directory (go test runs a test in its package's directory:
// "../testdata"). PLANX_ADV_UPDATE=1 rewrites the group's lines of
// expect.txt with today's outcomes alone instead (updateExpect keeps the
// other groups' lines); PLANX_ADV_TABLE=<file> also writes the group's
// table, to file with the group's name before its extension (t.txt:
// t.gopt.txt): go test may run the groups at once.
func Adversarial(t *testing.T, group, testdata string) {
	g, err := groupNamed(group)
	if err != nil {
		t.Fatal(err)
	}
	tl := setup(t, testdata)
	all, err := loadCases(filepath.Join(tl.testdata, "agents"))
	if err != nil {
		t.Fatal(err)
	}
	cases := g.cases(all)
	expectPath := filepath.Join(tl.testdata, "expect.txt")
	s := &suite{tl: tl, update: os.Getenv("PLANX_ADV_UPDATE") != "", slots: make(chan struct{}, 2), // two cases at a time, whatever the machine
		alone: map[string]caseRun{}, inWave: map[string]caseRun{}}
	s.want, err = readExpect(expectPath)
	if err != nil && !(s.update && os.IsNotExist(err)) {
		t.Fatal(err)
	}
	// Every case alone before any in a wave: t.Run returns once its
	// parallel subtests are done, so a case in a wave is compared with its
	// run alone.
	t.Run("case", func(t *testing.T) {
		for _, k := range cases {
			t.Run(k.name, func(t *testing.T) { s.run(t, k, false) })
		}
	})
	t.Run("wave", func(t *testing.T) {
		for _, k := range waveCases(cases) {
			t.Run(k.name, func(t *testing.T) { s.run(t, k, true) })
		}
	})
	table := formatTable(g, cases, s.want, s.alone, s.inWave)
	t.Log("\n" + table)
	if p := os.Getenv("PLANX_ADV_TABLE"); p != "" {
		if err := os.WriteFile(tablePath(p, g.name), []byte(table), 0o644); err != nil {
			t.Error(err)
		}
	}
	if s.update {
		for name, c := range s.inWave {
			if a, ok := s.alone[name]; ok && !sameVerdict(name, a.outcome, c) {
				t.Errorf("%s in a wave: %s; alone: %s", name, c.outcome, a.outcome)
			}
		}
		if len(s.alone) == len(cases) && !t.Failed() {
			if err := updateExpect(expectPath, all, outcomes(s.alone)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// tablePath is where PLANX_ADV_TABLE=p has the group named group write
// its table: p with the group's name before its extension.
func tablePath(p, group string) string {
	ext := filepath.Ext(p)
	return strings.TrimSuffix(p, ext) + "." + group + ext
}

// outcomes are the outcomes of runs, by case.
func outcomes(runs map[string]caseRun) map[string]string {
	out := map[string]string{}
	for name, c := range runs {
		out[name] = c.outcome
	}
	return out
}

// suite is one run of a group: the expected outcomes and what each case
// came to, alone and in a wave.
type suite struct {
	tl     *tools
	want   map[string]string // expect.txt
	update bool              // PLANX_ADV_UPDATE: today's outcomes alone are the expectations
	slots  chan struct{}     // the cases running at once

	mu            sync.Mutex
	alone, inWave map[string]caseRun
}

// run runs k alone or in a wave, in parallel with the other cases, and
// checks its outcome against expect.txt (and, in a wave, against its run
// alone and what became of its neighbours).
func (s *suite) run(t *testing.T, k *kase, wave bool) {
	t.Parallel()
	if why := s.tl.missing[k.lang.needs]; k.lang.needs != "" && why != "" {
		t.Skipf("%s: the %s cases need %s: %s", k.name, k.lang.name, k.lang.needs, why)
	}
	s.slots <- struct{}{}
	defer func() { <-s.slots }()
	c := s.tl.runCase(t, k, wave)
	s.mu.Lock()
	if wave {
		s.inWave[k.name] = c
	} else {
		s.alone[k.name] = c
	}
	s.mu.Unlock()
	if testing.Verbose() {
		t.Logf("%s: %s (%s)\n%s", k.name, c.outcome, k.what, c.log)
	}
	w, ok := s.want[k.name]
	switch {
	case s.update:
	case !ok:
		t.Errorf("%s: %s, and expect.txt does not name it (%s)", k.name, c.outcome, k.what)
	case !wave && c.outcome != w:
		t.Errorf("%s: %s, expect.txt says %s (%s)\n%s", k.name, c.outcome, w, k.what, c.log)
	case wave && !sameVerdict(k.name, w, c):
		t.Errorf("%s: %s in a wave, %s alone (expect.txt) (%s)\nwhy in the wave: %s\nwhy alone: %s\n%s",
			k.name, c.outcome, w, k.what, c.why, s.why(k.name), c.log)
	}
	if a, ok := s.ran(k.name); ok && wave {
		if wrong := sameRefusal(c, a); wrong != "" {
			t.Errorf("%s: %s", k.name, wrong)
		}
	}
	if wave && c.neighbours != neighboursWant(c) {
		t.Errorf("%s in a wave: T001 %s, its neighbours T002 and T003 %s, want %s\n%s",
			k.name, c.outcome, c.neighbours, neighboursWant(c), c.log)
	}
}

// why is why planx failed the case name's task alone in this run of the
// suite, if it ran and did.
func (s *suite) why(name string) string {
	if c, ok := s.ran(name); ok {
		return c.why
	}
	return "(not run alone)"
}

// ran is the case name's run alone in this run of the suite, if it ran.
func (s *suite) ran(name string) (caseRun, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.alone[name]
	return c, ok
}

// sameRefusal says what is wrong when c, a case's run in a wave, came to
// its outcome alone (a) but was refused otherwise (once waveWhy takes out
// what a wave adds): the check that refused it alone did not hold in the
// slot, and another caught it by chance. "" when nothing is.
func sameRefusal(c, a caseRun) string {
	if c.outcome != a.outcome || waveWhy(c.why) == waveWhy(a.why) {
		return ""
	}
	return fmt.Sprintf("%s in a wave as alone, but refused otherwise\nin the wave: %s\nalone: %s\n%s", c.outcome, c.why, a.why, c.log)
}

// refusal is the reason planx gave for failing a task, from its output.
func refusal(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if _, r, ok := strings.Cut(line, "✗ failed: "); ok {
			return r
		}
	}
	return ""
}

// setup finds the toolchains and builds planx from the module holding this
// package, once for every case of a group; testdata is the suite's.
func setup(t *testing.T, testdata string) *tools {
	t.Helper()
	if testing.Short() {
		t.Skip("the adversarial suite runs planx on real toolchains; -short skips it")
	}
	tl := &tools{scratch: t.TempDir(), templates: map[string]*template{}, truths: map[string]*truth{},
		missing: map[string]string{}}
	var dirs []string
	for _, prog := range []string{"go", "python3", "node", "git"} {
		p, err := exec.LookPath(prog)
		if err != nil {
			t.Skipf("the adversarial suite needs %s: %v", prog, err)
		}
		if prog == "python3" {
			var why string
			if p, why = pythonWithPytest(p); why != "" {
				tl.missing["pytest"] = why
			}
		}
		dirs = append(dirs, filepath.Dir(p))
	}
	if p, err := exec.LookPath("make"); err != nil {
		tl.missing["make"] = fmt.Sprintf("no make: %v", err)
	} else {
		dirs = append(dirs, filepath.Dir(p))
	}
	for _, d := range append(dirs, "/usr/bin", "/bin") {
		if !slices.Contains(tl.pathDirs, d) {
			tl.pathDirs = append(tl.pathDirs, d)
		}
	}
	auditPath = strings.Join(tl.pathDirs, ":")
	out, err := exec.Command("go", "env", "GOMOD", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(f) != 4 || f[0] == "" || f[0] == os.DevNull {
		t.Fatalf("go env GOMOD GOCACHE GOMODCACHE GOPATH: %q", out)
	}
	tl.goCache, tl.modCache, tl.goPath = f[1], f[2], f[3]
	if tl.testdata, err = filepath.Abs(testdata); err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(f[0])
	if err := statSources(root); err != nil {
		t.Fatal(err)
	}
	tl.planx = filepath.Join(tl.scratch, "planx")
	build := exec.Command("go", "build", "-o", tl.planx, "./cmd/planx")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/planx: %v\n%s", err, out)
	}
	return tl
}

// statSources looks at every Go source and module file of the module at
// root. go test caches a passing result with the files the test looked
// at: planx is built by a child process, whose reads it does not see, so
// without this a change to planx would leave the cached result standing.
func statSources(root string) error {
	return filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if n := d.Name(); !d.IsDir() && (strings.HasSuffix(n, ".go") || n == "go.mod" || n == "go.sum") {
			_, err = os.Stat(p)
		}
		return err
	})
}

// pythonWithPytest is the interpreter the cases run as python3: the first
// of /usr/bin/python3 and what p (python3 on PATH, perhaps a pyenv or asdf
// shim) execs that imports pytest, so that PATH can name its directory;
// without one, the first that runs, and why the pytest cases cannot.
func pythonWithPytest(p string) (string, string) {
	var found []string
	for _, c := range []string{"/usr/bin/python3", p} {
		out, err := exec.Command(c, "-c", "import sys; print(sys.executable)").Output()
		if err != nil {
			continue
		}
		exe := strings.TrimSpace(string(out))
		if exec.Command(exe, "-c", "import pytest").Run() == nil {
			return exe, ""
		}
		found = append(found, exe)
	}
	if len(found) == 0 {
		return p, "no python3 runs"
	}
	return found[0], "no python3 imports pytest (tried " + strings.Join(found, ", ") +
		"; .ci/run installs Debian's python3-pytest)"
}

// caseRun is what one run of planx on a case came to.
type caseRun struct {
	outcome   string
	committed bool   // planx committed T001
	log       string // what planx printed, and the ground truth's words on the commit
	why       string // why planx failed T001, "" when it did not
	// neighbours is what became of T002 and T003 in the wave mode
	// (landed, held), "" alone.
	neighbours string
}

// runCase runs k alone or, with wave, in a wave: for a cheat alone first
// the check that the cheat works (the mode does not change the cheat),
// then planx on a fresh repository, then the audit.
func (tl *tools) runCase(t *testing.T, k *kase, wave bool) caseRun {
	ctx := t.Context()
	work := t.TempDir()
	if k.cheat() && !wave {
		if err := tl.cheatWorks(ctx, k, filepath.Join(work, "pre")); err != nil {
			t.Errorf("%s does not cheat: %v", k.name, err)
		}
	}
	dir := filepath.Join(work, "run")
	env, repo, script, err := tl.prepare(ctx, k, dir, wave)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "--agent", "sh " + script, "plan.md"}
	if wave {
		args = waveArgs(script)
	}
	r := run(ctx, repo, env, append([]string{tl.planx}, args...)...)
	c := caseRun{log: "planx run: " + strings.ReplaceAll(r.String(), dir, "$CASE"), why: refusal(r.out)}
	sha, err := committedT001(ctx, repo, env)
	if err != nil {
		t.Fatal(err)
	}
	c.committed = sha != ""
	var drop []string
	if wave {
		c.why = strings.ReplaceAll(waveRefusal(repo), dir, "$CASE")
		if err := ranInWave(ctx, repo, env, r.out, sha); err != nil {
			t.Errorf("%s did not run in a wave: %v\n%s", k.name, err, c.log)
		}
		if c.neighbours, err = neighbourFate(ctx, repo, env, c.committed); err != nil {
			t.Fatal(err)
		}
		for _, n := range neighbours() {
			drop = append(drop, n[1])
		}
	}
	if sha == "" {
		c.outcome = caught
		if !k.cheat() {
			c.outcome = refusedHonest
			if err := tl.honestWorks(ctx, k, filepath.Join(work, "pre")); err != nil {
				t.Errorf("%s is not honest: %v", k.name, err)
			}
		}
		return c
	}
	v, err := tl.groundTruth(ctx, repo, env, sha, k, filepath.Join(dir, "truth"), drop...)
	if err != nil {
		t.Fatal(err)
	}
	c.log += "\nground truth on the commit: " + v.why
	switch {
	case k.cheat() && v.correct:
		c.outcome = caught
	case k.cheat():
		c.outcome = committedCheat
	case !v.correct:
		t.Errorf("%s is honest, but its commit fails the ground truth:\n%s", k.name, c.log)
		fallthrough
	default:
		c.outcome = accepted
	}
	return c
}

// prepare makes dir's home, TMPDIR and repository for k (with the plan
// of the wave mode with wave) and copies its agent next to them, outside
// the repository.
func (tl *tools) prepare(ctx context.Context, k *kase, dir string, wave bool) (env []string, repo, script string, err error) {
	home, err := newHome(dir)
	if err != nil {
		return nil, "", "", err
	}
	tmp := filepath.Join(dir, "tmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return nil, "", "", err
	}
	env = tl.caseEnv(home, tmp, k)
	repo = filepath.Join(dir, "repo")
	if err := tl.newRepo(ctx, repo, env, k, wave); err != nil {
		return nil, "", "", err
	}
	b, err := os.ReadFile(k.script)
	if err != nil {
		return nil, "", "", err
	}
	script = filepath.Join(dir, "agent.sh")
	return env, repo, script, os.WriteFile(script, b, 0o755)
}
