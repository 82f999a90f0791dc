package executor

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gitops"
)

// environPrint is what an agent could change outside the repository to
// fool the judge: the user's global git configuration (a core.hooksPath
// that switches off the pre-commit hook, a global excludes file that hides
// files), the programs on PATH (a fake `sh` that passes every gate) and the
// test runners' user configuration (runnerFiles, userSiteDirs). It
// is taken before an agent runs and compared after.
type environPrint map[string]string // what → fingerprint

// takeEnvironPrint fingerprints the global git files and the test
// runners' configuration above the repository at root and above gateDir
// (ancestorConfigs) by content, and each
// PATH directory by its entries' names, sizes, modes and times.
func takeEnvironPrint(path, root, gateDir string) environPrint {
	p := environPrint{}
	for _, f := range ancestorConfigs(root, gateDir) {
		if b, err := os.ReadFile(f); err == nil {
			p["test runner config above the repository "+f] = fmt.Sprintf("%x", sha256.Sum256(b))
		}
	}
	for _, f := range gitops.GlobalConfigFiles() {
		if b, err := os.ReadFile(f); err == nil {
			p["git config "+f] = fmt.Sprintf("%x", sha256.Sum256(b))
		}
	}
	for _, f := range runnerFiles() {
		if b, err := os.ReadFile(f); err == nil {
			p["test runner config "+f] = fmt.Sprintf("%x", sha256.Sum256(b))
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			fi, err := e.Info()
			if err != nil {
				continue
			}
			p["PATH "+filepath.Join(dir, e.Name())] = fmt.Sprintf("%d %v %d", fi.Size(), fi.Mode(), fi.ModTime().UnixNano())
		}
	}
	for _, dir := range userSiteDirs() {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			// Code that runs at interpreter start; packages an agent
			// installs with pip --user are ordinary work.
			n := e.Name()
			if !strings.HasSuffix(n, ".pth") && n != "usercustomize.py" && n != "sitecustomize.py" {
				continue
			}
			if fi, err := e.Info(); err == nil {
				p["python user site "+filepath.Join(dir, e.Name())] = fmt.Sprintf("%d %v %d", fi.Size(), fi.Mode(), fi.ModTime().UnixNano())
			}
		}
	}
	return p
}

// runnerFiles are the user's files that change what a gate's test runner
// runs with no change in the repository: `go env -w GOFLAGS=-run=^$` makes
// `go test ./...` pass without running a test, ~/.npmrc's script-shell
// replaces the shell npm runs scripts with, a cargo runner replaces the
// test binaries, Maven's settings can activate a profile that skips the
// tests, a Gradle init script can disable the test task.
func runnerFiles() []string {
	home, _ := os.UserHomeDir()
	var out []string
	if g := os.Getenv("GOENV"); g != "" && g != "off" {
		out = append(out, g)
	} else if cfg, err := os.UserConfigDir(); err == nil {
		out = append(out, filepath.Join(cfg, "go", "env"))
	}
	if home != "" {
		for _, f := range []string{".npmrc", ".yarnrc", ".yarnrc.yml", ".bunfig.toml", ".cargo/config.toml", ".cargo/config",
			".m2/settings.xml", ".m2/maven.config", ".gradle/gradle.properties", ".gradle/init.gradle", ".gradle/init.gradle.kts"} {
			out = append(out, filepath.Join(home, filepath.FromSlash(f)))
		}
		// Init scripts run before every Gradle build: one can disable the test task.
		scripts, _ := filepath.Glob(filepath.Join(home, ".gradle", "init.d", "*"))
		out = append(out, scripts...)
	}
	return out
}

// ancestorConfigs are the files test runners read from the directories
// above the repository at root ("" for none) and above gateDir, where
// planx may run the gates (a clean checkout in the git directory): go test
// uses a go.work found in any parent directory (which can replace the
// assertion library with one that passes), cargo merges every
// .cargo/config.toml from the working directory up to / (a target runner
// of `true` passes every test binary), and pytest takes its rootdir and
// options from the first pytest.ini, pyproject.toml, tox.ini or setup.cfg
// above the tests when the repository holds none, and loads conftest.py
// files up to there. The repository's own files are git's to judge.
func ancestorConfigs(root, gateDir string) []string {
	if root == "" {
		return nil
	}
	var dirs []string
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		dirs = append(dirs, dir)
		if filepath.Dir(dir) == dir {
			break
		}
	}
	for dir := gateDir; dir != ""; {
		dir = filepath.Dir(dir)
		if dir == root || slices.Contains(dirs, dir) || filepath.Dir(dir) == dir {
			break
		}
		dirs = append(dirs, dir)
	}
	var out []string
	for _, dir := range dirs {
		for _, n := range []string{"go.work", ".cargo/config.toml", ".cargo/config", "pytest.ini", "pyproject.toml",
			"tox.ini", "setup.cfg", "conftest.py"} {
			out = append(out, filepath.Join(dir, filepath.FromSlash(n)))
		}
	}
	return out
}

// userSiteDirs are Python's user site-packages directories: a .pth file or
// a usercustomize.py there runs at every interpreter start, pytest's too.
func userSiteDirs() []string {
	home, _ := os.UserHomeDir()
	if home == "" {
		return nil
	}
	var out []string
	for _, pat := range []string{".local/lib/python*/site-packages", "Library/Python/*/lib/python/site-packages"} {
		m, _ := filepath.Glob(filepath.Join(home, filepath.FromSlash(pat)))
		out = append(out, m...)
	}
	return out
}

// changed lists what differs from an earlier print.
func (p environPrint) changed(now environPrint) []string {
	var out []string
	for k, v := range now {
		switch old, ok := p[k]; {
		case !ok:
			out = append(out, "new "+k)
		case old != v:
			out = append(out, "changed "+k)
		}
	}
	for k := range p {
		if _, ok := now[k]; !ok {
			out = append(out, "removed "+k)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		return strings.Compare(a[strings.IndexByte(a, ' '):], b[strings.IndexByte(b, ' '):])
	})
	return out
}
