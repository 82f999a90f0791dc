package executor

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
)

func TestRunnersChanged(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{
		"node_modules/jest-circus/build/run.js", "node_modules/@jest/core/index.js", "node_modules/lodash/index.js",
		"web/node_modules/vitest/dist/cli.js", ".venv/pyvenv.cfg", ".venv/lib/python3.12/site-packages/_pytest/main.py",
		".venv/lib/python3.12/site-packages/requests/api.py", "notavenv/lib/python3.12/site-packages/_pytest/main.py",
	} {
		write(p, "v1\n")
	}
	ignored := []string{".venv/", "node_modules/", "notavenv/", "web/node_modules/", "secret.env"}
	roots := runnerRoots(root, ignored)
	var rel []string
	for _, r := range roots {
		p, _ := filepath.Rel(root, r)
		rel = append(rel, filepath.ToSlash(p))
	}
	want := []string{".venv/lib/python3.12/site-packages/_pytest", "node_modules/@jest", "node_modules/jest-circus", "web/node_modules/vitest"}
	slices.Sort(rel)
	if !slices.Equal(rel, want) {
		t.Fatalf("runnerRoots = %v, want %v", roots, want)
	}
	// The file system's clock is coarse: the mark is a file's change time.
	write("mark", "")
	var mark gitops.RecordsMark
	if fi, err := os.Stat(filepath.Join(root, "mark")); err == nil {
		mark = gitops.RecordsMark(fi.ModTime().UnixNano())
	}
	time.Sleep(50 * time.Millisecond)
	if got := runnersChanged(root, roots, mark, 5); len(got) != 0 {
		t.Fatalf("nothing changed yet, got %v", got)
	}
	// Not runners, or written by running one: not counted.
	write("node_modules/lodash/index.js", "v2\n")
	write(".venv/lib/python3.12/site-packages/requests/api.py", "v2\n")
	write(".venv/lib/python3.12/site-packages/_pytest/__pycache__/main.cpython-312.pyc", "x")
	write("node_modules/jest-circus/.cache/x", "x")
	if got := runnersChanged(root, roots, mark, 5); len(got) != 0 {
		t.Fatalf("only other packages and caches changed, got %v", got)
	}
	write("node_modules/jest-circus/build/run.js", "v2\n")
	write(".venv/lib/python3.12/site-packages/_pytest/new.py", "x")
	got := runnersChanged(root, roots, mark, 5)
	slices.Sort(got)
	if want := []string{".venv/lib/python3.12/site-packages/_pytest/new.py", "node_modules/jest-circus/build/run.js"}; !slices.Equal(got, want) {
		t.Fatalf("runnersChanged = %v, want %v", got, want)
	}
}

func TestChangesDeps(t *testing.T) {
	for files, want := range map[string]bool{"package-lock.json": true, "web/package.json": true, "requirements.txt": true,
		"src/app.js": false, "uv.lock": true, "docs/pyproject.md": false} {
		if got := changesDeps([]string{files}); got != want {
			t.Errorf("changesDeps(%q) = %v, want %v", files, got, want)
		}
	}
}

// The test libraries a toolchain installed outside the repository are
// found from the program on PATH (through a symbolic link, as a system or
// SDK python3 often is) and from the environment when the toolchain cannot
// be asked (here: no go on PATH, a python3 that does not run).
func TestToolchainRunners(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"py/bin/python3.11", "py/lib/python3.11/unittest/case.py",
		"py/lib/python3.11/site-packages/_pytest/main.py", "py/lib/python3.11/site-packages/requests/api.py",
		"node/bin/node", "node/lib/node_modules/jest/bin/jest.js", "goroot/src/testing/testing.go",
		"mod/example.com/!upper@v1.0.0/a.go", "mod/example.com/other@v2.0.0/a.go"} {
		abs := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := filepath.Join(dir, "links")
	if err := os.Mkdir(links, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "py/bin/python3.11"), filepath.Join(links, "python3")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", links+string(os.PathListSeparator)+filepath.Join(dir, "node/bin"))
	t.Setenv("HOME", filepath.Join(dir, "home"))
	t.Setenv("GOROOT", filepath.Join(dir, "goroot"))
	t.Setenv("GOMODCACHE", filepath.Join(dir, "mod"))
	rel := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			r, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(r))
		}
		slices.Sort(out)
		return out
	}
	gs := []gates.Gate{{Name: "py", Command: "python3 -m pytest"}, {Name: "js", Command: "npx jest"}}
	ask := func(gs ...gates.Gate) toolPaths { return askToolPaths(context.Background(), gs, dir) }
	if got, want := rel(ask(gs...).installedRunners()), []string{"node/lib/node_modules/jest", "py/lib/python3.11/site-packages/_pytest",
		"py/lib/python3.11/unittest"}; !slices.Equal(got, want) {
		t.Errorf("installedRunners = %v, want %v", got, want)
	}
	goGate := gates.Gate{Name: "go", Command: "go test ./..."}
	if got := ask(goGate).installedRunners(); len(got) != 0 {
		t.Errorf("installedRunners for a go gate = %v, want none", got)
	}
	mods := map[string]string{"example.com/Upper": "v1.0.0", "example.com/gone": "v1.0.0"}
	if got, want := rel(ask(goGate).goRunners(mods)),
		[]string{"goroot/src/testing", "mod/example.com/!upper@v1.0.0"}; !slices.Equal(got, want) {
		t.Errorf("goRunners = %v, want %v", got, want)
	}
	if got := ask(gs...).goRunners(mods); len(got) != 0 {
		t.Errorf("goRunners without a go gate = %v, want none", got)
	}
}

// The toolchains on this machine answer for themselves: GOROOT and the
// module cache from go env, Python's directories from sysconfig (through
// pyenv's shim here).
func TestAskToolPaths(t *testing.T) {
	gs := []gates.Gate{{Name: "go", Command: "go test ./..."}, {Name: "py", Command: "python3 -m unittest"}}
	tp := askToolPaths(context.Background(), gs, t.TempDir())
	if _, err := exec.LookPath("go"); err == nil {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.TrimSpace(string(out)); tp.goRoot != want {
			t.Errorf("goRoot = %q, want %q", tp.goRoot, want)
		}
		if tp.goModCache == "" {
			t.Error("no module cache")
		}
		if rs := tp.goRunners(nil); len(rs) != 1 || filepath.Base(rs[0]) != "testing" {
			t.Errorf("goRunners = %v, want GOROOT/src/testing", rs)
		}
	}
	if _, err := exec.LookPath("python3"); err == nil {
		if len(tp.pySites) == 0 {
			t.Error("python3 on PATH, but no site-packages asked")
		}
		if !slices.ContainsFunc(tp.installedRunners(), func(p string) bool { return filepath.Base(p) == "unittest" }) {
			t.Errorf("installedRunners = %v, want the standard unittest", tp.installedRunners())
		}
	}
}
