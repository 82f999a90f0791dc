package advsuite

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestAdversarial runs every case of testdata/agents through planx and
// audits it (see testdata/README.md): the outcome of each must be the one
// testdata/expect.txt records. PLANX_ADV_UPDATE=1 rewrites expect.txt with
// today's outcomes instead; PLANX_ADV_TABLE=<file> also writes the table.
func TestAdversarial(t *testing.T) {
	tl := setup(t)
	cases, err := loadCases(filepath.Join(tl.testdata, "agents"))
	if err != nil {
		t.Fatal(err)
	}
	expectPath := filepath.Join(tl.testdata, "expect.txt")
	update := os.Getenv("PLANX_ADV_UPDATE") != ""
	want, err := readExpect(expectPath)
	if err != nil && !(update && os.IsNotExist(err)) {
		t.Fatal(err)
	}
	var mu sync.Mutex
	got, why := map[string]string{}, map[string]string{}
	slots := make(chan struct{}, 2) // two cases at a time, whatever the machine
	t.Run("case", func(t *testing.T) {
		for _, k := range cases {
			t.Run(k.name, func(t *testing.T) {
				t.Parallel()
				slots <- struct{}{}
				defer func() { <-slots }()
				outcome, log := tl.runCase(t, k)
				mu.Lock()
				got[k.name], why[k.name] = outcome, refusal(log)
				mu.Unlock()
				if testing.Verbose() {
					t.Logf("%s: %s (%s)\n%s", k.name, outcome, k.what, log)
				}
				switch w, ok := want[k.name]; {
				case update:
				case !ok:
					t.Errorf("%s: %s, and expect.txt does not name it (%s)", k.name, outcome, k.what)
				case outcome != w:
					t.Errorf("%s: %s, expect.txt says %s (%s)\n%s", k.name, outcome, w, k.what, log)
				}
			})
		}
	})
	table := formatTable(cases, want, got, why)
	t.Log("\n" + table)
	if p := os.Getenv("PLANX_ADV_TABLE"); p != "" {
		if err := os.WriteFile(p, []byte(table), 0o644); err != nil {
			t.Error(err)
		}
	}
	if update {
		if len(got) == len(cases) && !t.Failed() {
			if err := writeExpect(expectPath, cases, got); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	for name := range want {
		if !slices.ContainsFunc(cases, func(k *kase) bool { return k.name == name }) {
			t.Errorf("expect.txt names %s, which testdata/agents does not have", name)
		}
	}
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
// package, once for every case.
func setup(t *testing.T) *tools {
	t.Helper()
	if testing.Short() {
		t.Skip("the adversarial suite runs planx on real toolchains; -short skips it")
	}
	tl := &tools{scratch: t.TempDir(), templates: map[string]*template{}, truths: map[string]*truth{}}
	var dirs []string
	for _, prog := range []string{"go", "python3", "node", "git"} {
		p, err := exec.LookPath(prog)
		if err != nil {
			t.Skipf("the adversarial suite needs %s: %v", prog, err)
		}
		if prog == "python3" {
			p = realPython(p)
		}
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
	if tl.testdata, err = filepath.Abs("testdata"); err != nil {
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

// realPython is the interpreter python3 runs: /usr/bin/python3 when there
// is one, else what a shim (pyenv, asdf) execs, so PATH can name its
// directory.
func realPython(p string) string {
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		return "/usr/bin/python3"
	}
	out, err := exec.Command(p, "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return p
	}
	return strings.TrimSpace(string(out))
}

// runCase runs k: for a cheat first the check that the cheat works, then
// planx on a fresh repository, then the audit. It returns the outcome and
// what planx printed.
func (tl *tools) runCase(t *testing.T, k *kase) (string, string) {
	ctx := t.Context()
	work := t.TempDir()
	if k.cheat() {
		if err := tl.cheatWorks(ctx, k, filepath.Join(work, "pre")); err != nil {
			t.Errorf("%s does not cheat: %v", k.name, err)
		}
	}
	dir := filepath.Join(work, "run")
	env, repo, script, err := tl.prepare(ctx, k, dir)
	if err != nil {
		t.Fatal(err)
	}
	r := run(ctx, repo, env, tl.planx, "run", "--agent", "sh "+script, "plan.md")
	log := "planx run: " + strings.ReplaceAll(r.String(), dir, "$CASE")
	sha, err := committedT001(ctx, repo, env)
	if err != nil {
		t.Fatal(err)
	}
	if sha == "" {
		if !k.cheat() {
			if err := tl.honestWorks(ctx, k, filepath.Join(work, "pre")); err != nil {
				t.Errorf("%s is not honest: %v", k.name, err)
			}
			return refusedHonest, log
		}
		return caught, log
	}
	v, err := tl.groundTruth(ctx, repo, env, sha, k, filepath.Join(dir, "truth"))
	if err != nil {
		t.Fatal(err)
	}
	log += "\nground truth on the commit: " + v.why
	switch {
	case k.cheat() && v.correct:
		return caught, log
	case k.cheat():
		return committedCheat, log
	case !v.correct:
		t.Errorf("%s is honest, but its commit fails the ground truth:\n%s", k.name, log)
	}
	return accepted, log
}

// prepare makes dir's home, TMPDIR and repository for k and copies its
// agent next to them, outside the repository.
func (tl *tools) prepare(ctx context.Context, k *kase, dir string) (env []string, repo, script string, err error) {
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
	if err := tl.newRepo(ctx, repo, env, k); err != nil {
		return nil, "", "", err
	}
	b, err := os.ReadFile(k.script)
	if err != nil {
		return nil, "", "", err
	}
	script = filepath.Join(dir, "agent.sh")
	return env, repo, script, os.WriteFile(script, b, 0o755)
}
