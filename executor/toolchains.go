package executor

import (
	"context"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/module"

	"github.com/planx-dev/planx/gates"
)

// Test libraries also live outside the repository, installed with the
// toolchain or downloaded by it, and often writable by the user: Go's
// testing package under GOROOT (an SDK in the home directory), the
// modules go.mod requires in the module cache (read-only files, which a
// chmod makes writable), pytest and unittest in a Python installed under
// the home directory (pyenv), jest installed globally with npm -g.
// An agent that edits them changes what the gates run on; deps.go judges
// their change times as it does the repository's installed runners.

// toolchainUses says which toolchains the gates run: "go", "python",
// "node".
func toolchainUses(gs []gates.Gate) map[string]bool {
	uses := map[string]bool{}
	for _, g := range gs {
		for _, w := range commandWords(g.Command) {
			switch path.Base(w) {
			case "go":
				uses["go"] = true
			case "python", "python3", "pytest", "py.test", "tox", "nox":
				uses["python"] = true
			case "npm", "npx", "yarn", "pnpm", "jest", "vitest", "mocha":
				uses["node"] = true
			}
		}
	}
	return uses
}

// toolPaths are where the toolchains the gates use keep their test
// libraries: GOROOT and the module cache as go env prints them, Python's
// standard library and site-packages as sysconfig does (which sees
// through pyenv's and asdf's shims), with guesses from the environment
// and PATH where a toolchain cannot be asked.
type toolPaths struct {
	uses       map[string]bool
	goRoot     string
	goModCache string
	pyLibs     []string // standard library directories (lib/pythonX.Y)
	pySites    []string // site-packages directories
}

// askToolPaths asks the toolchains the gates use, from the work tree at
// root (a go.mod there may select another Go). A toolchain that does not
// answer in a few seconds is guessed.
func askToolPaths(ctx context.Context, gs []gates.Gate, root string) toolPaths {
	tp := toolPaths{uses: toolchainUses(gs)}
	ask := func(name string, args ...string) []string {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			return nil
		}
		return strings.Split(strings.TrimSpace(string(out)), "\n")
	}
	if tp.uses["go"] {
		tp.goRoot, tp.goModCache = goRoot(), goModCache()
		if l := ask("go", "env", "GOROOT", "GOMODCACHE"); len(l) == 2 {
			tp.goRoot, tp.goModCache = l[0], l[1]
		}
	}
	if tp.uses["python"] {
		tp.pyLibs = pythonLibs()
		for _, py := range []string{"python3", "python"} {
			// -I: not a sysconfig.py of the work tree's, nor PYTHON* variables.
			if l := ask(py, "-I", "-c", "import sysconfig as s; p = s.get_paths(); print(p['stdlib']); print(p['purelib'])"); len(l) == 2 {
				tp.pyLibs = append(tp.pyLibs, l[0])
				tp.pySites = append(tp.pySites, l[1])
			}
		}
	}
	return tp
}

// goRunners lists (absolute paths) Go's testing package and the cached
// copies of modules (path → version), when a gate runs go. A module
// cache copy never changes: a new version is a new directory.
func (tp toolPaths) goRunners(modules map[string]string) []string {
	if !tp.uses["go"] {
		return nil
	}
	var out []string
	if tp.goRoot != "" {
		out = append(out, filepath.Join(tp.goRoot, "src", "testing"))
	}
	if tp.goModCache != "" {
		for m, v := range modules {
			ep, err1 := module.EscapePath(m)
			ev, err2 := module.EscapeVersion(v)
			if err1 == nil && err2 == nil {
				out = append(out, filepath.Join(tp.goModCache, filepath.FromSlash(ep)+"@"+ev))
			}
		}
	}
	return existing(out)
}

// installedRunners lists (absolute paths) the test libraries installed
// with Python (unittest, and pytest in its site-packages) when a gate runs
// Python, and those installed globally with npm when one runs a
// JavaScript runner.
func (tp toolPaths) installedRunners() []string {
	var out []string
	if tp.uses["python"] {
		sites := slices.Clone(tp.pySites)
		for _, lib := range tp.pyLibs {
			out = append(out, filepath.Join(lib, "unittest"))
			sites = append(sites, filepath.Join(lib, "site-packages"))
		}
		for _, site := range sites {
			out = append(out, globAbs(site, pyRunners())...)
		}
	}
	if tp.uses["node"] {
		if prefix := binPrefix("node"); prefix != "" {
			out = append(out, globAbs(filepath.Join(prefix, "lib", "node_modules"), nodeRunners())...)
		}
	}
	return existing(out)
}

// goRoot is GOROOT as the go on PATH uses it: $GOROOT, else the directory
// above the bin/ the go binary sits in (a shim elsewhere gives none).
func goRoot() string {
	if g := os.Getenv("GOROOT"); g != "" {
		return g
	}
	return binPrefix("go")
}

// goModCache is the module cache: $GOMODCACHE, else the first GOPATH's
// pkg/mod, else ~/go/pkg/mod.
func goModCache() string {
	if c := os.Getenv("GOMODCACHE"); c != "" {
		return c
	}
	if gp := filepath.SplitList(os.Getenv("GOPATH")); len(gp) > 0 && gp[0] != "" {
		return filepath.Join(gp[0], "pkg", "mod")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, "go", "pkg", "mod")
	}
	return ""
}

// pythonLibs are the standard library directories (lib/pythonX.Y) of the
// Pythons a gate may run: the python3 on PATH, and those pyenv, conda and
// uv keep in the home directory (their shims hide which one runs).
func pythonLibs() []string {
	var out []string
	for _, name := range []string{"python3", "python"} {
		if prefix := binPrefix(name); prefix != "" {
			m, _ := filepath.Glob(filepath.Join(prefix, "lib", "python3*"))
			out = append(out, m...)
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		for _, pat := range []string{".pyenv/versions/*/lib/python3*", "miniconda3/lib/python3*", "anaconda3/lib/python3*",
			".local/share/uv/python/*/lib/python3*"} {
			m, _ := filepath.Glob(filepath.Join(home, filepath.FromSlash(pat)))
			out = append(out, m...)
		}
	}
	return out
}

// binPrefix is the directory above the bin/ directory holding the program
// name on PATH, symbolic links followed; "" when it is not in a bin/.
func binPrefix(name string) string {
	p, err := exec.LookPath(name)
	if err != nil {
		return ""
	}
	if p, err = filepath.EvalSymlinks(p); err != nil {
		return ""
	}
	bin := filepath.Dir(p)
	if filepath.Base(bin) != "bin" {
		return ""
	}
	return filepath.Dir(bin)
}

// globAbs returns what the patterns match in dir.
func globAbs(dir string, patterns []string) []string {
	var out []string
	for _, pat := range patterns {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		out = append(out, m...)
	}
	return out
}

// existing keeps the paths that exist, once each.
func existing(ps []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range ps {
		if seen[p] {
			continue
		}
		seen[p] = true
		if _, err := os.Stat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}
