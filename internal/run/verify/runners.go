package verify

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/planx-dev/planx/internal/fsutil"
	"github.com/planx-dev/planx/internal/ledger/records"
	"github.com/planx-dev/planx/internal/outcome"
)

// The test runner a gate starts is usually installed where git does not
// look: node_modules/jest-circus, .venv/lib/python3.12/site-packages/_pytest.
// An agent that edits the runner there (an assertion that never throws, a
// collector that finds nothing) weakens the judge without a change git can
// see. planx looks at the installed runners, not at every dependency (a
// task may build, and tools write caches there): after an agent, any file
// of a runner changed since the mark taken before it started
// (inode change time, which no one but root can set back) fails the task,
// unless the task changed the dependencies on purpose: a manifest or lock
// file in its commit.

// nodeRunners are the packages under node_modules that are test runners,
// their plugins and their command shims.
func nodeRunners() []string {
	return []string{"jest", "jest-*", "@jest", "vitest", "@vitest", "mocha", "ava", "tap", "uvu",
		"@playwright", "playwright", "playwright-core", "jasmine", "jasmine-core", "karma", "karma-*", "chai", ".bin"}
}

// pyRunners are the entries of a virtual environment's site-packages that
// are test runners or run code at start-up.
func pyRunners() []string {
	return []string{"_pytest", "pytest", "pytest-*", "pytest_*", "pluggy", "py.py", "nose2", "*.pth",
		"sitecustomize.py", "usercustomize.py", "hypothesis"}
}

// DepManifests are the files whose change means the task (re)installed
// dependencies on purpose, and what a worktree_setup that installs them
// reads (wave.SetupKey).
func DepManifests() []string {
	return []string{"package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock",
		"pnpm-lock.yaml", "bun.lockb", "bun.lock", "requirements.txt", "requirements-dev.txt", "pyproject.toml",
		"setup.py", "setup.cfg", "poetry.lock", "uv.lock", "Pipfile", "Pipfile.lock"}
}

// runnerRoots lists (absolute paths) the installed test runners in the
// dependency environments among ignored (the ignored entries relative to
// root, as git ls-files --directory names them: a directory with a
// trailing slash): those of every node_modules and of every virtual
// environment (a directory with a pyvenv.cfg). An entry without the slash
// is a file, or a link git does not follow: no environment.
func runnerRoots(root string, ignored []string) []string {
	var out []string
	for _, e := range ignored {
		dir, isDir := strings.CutSuffix(e, "/")
		if !isDir {
			continue
		}
		abs := filepath.Join(root, filepath.FromSlash(dir))
		if path.Base(dir) == "node_modules" {
			out = append(out, globAbs(abs, nodeRunners())...)
			continue
		}
		if _, err := os.Stat(filepath.Join(abs, "pyvenv.cfg")); err != nil {
			continue
		}
		sites, _ := filepath.Glob(filepath.Join(abs, "lib", "python*", "site-packages"))
		sites2, _ := filepath.Glob(filepath.Join(abs, "Lib", "site-packages"))
		for _, site := range append(sites, sites2...) {
			out = append(out, globAbs(site, pyRunners())...)
		}
	}
	return out
}

// runnersChanged lists the files under the runners (absolute paths)
// whose change time is after mark, relative to root when under it; at
// most max of them (0: all).
func runnersChanged(root string, runners []string, mark records.Mark, max int) []string {
	var out []string
	for _, r := range runners {
		_ = filepath.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				// A directory changes when an entry is added (an import's
				// __pycache__); a file added or renamed changes itself.
				if d.Name() == "__pycache__" || d.Name() == ".cache" {
					return filepath.SkipDir
				}
				return nil
			}
			var st syscall.Stat_t
			if syscall.Lstat(p, &st) != nil || changeTime(&st) <= int64(mark) {
				return nil
			}
			if rel, err := filepath.Rel(root, p); err == nil && filepath.IsLocal(rel) {
				p = filepath.ToSlash(rel)
			}
			out = append(out, p)
			if len(out) == max {
				return filepath.SkipAll
			}
			return nil
		})
		if len(out) == max {
			break
		}
	}
	return out
}

// ChangesDeps reports whether files (the task's changes) hold a
// dependency manifest or lock file.
func ChangesDeps(files []string) bool {
	return slices.ContainsFunc(files, func(f string) bool { return slices.Contains(DepManifests(), path.Base(f)) })
}

// Runners is what the check of the installed test runners reads.
type Runners struct {
	Root string // the work tree
	// Ignored are the ignored entries of the work tree whose dependency
	// environments (node_modules, virtual environments) hold the runners:
	// those of the run's start and, when the agent was seen to start, the
	// agent's.
	Ignored []string
	Mark    records.Mark // the records' mark the agent ran under; 0 when no agent ran
	// Rejudged: the work is a judged attempt's, resumed; Left is the
	// runner files that attempt changed, by content (Changed).
	Rejudged bool
	Left     map[string]string
}

// Check fails the task when, since the mark an agent ran under, it
// changed an installed test runner in the repository's node_modules or
// virtual environments: ignored directories of the work tree, which the
// sandbox lets an agent write. (Runners outside the repository, under
// GOROOT, the module cache or a Python installation, it keeps the agent
// from writing.) A task that changed a dependency manifest or lock file
// (in files, its changes) may change them: an install or upgrade. On the
// resume of an attempt that failed its judgement, a runner file counts
// while it holds what the attempt left: a reinstall since is the user's.
func (c Runners) Check(files []string) error {
	if c.Mark == 0 || ChangesDeps(files) {
		return nil
	}
	limit := 5
	if c.Rejudged {
		limit = 0
	}
	changed := runnersChanged(c.Root, runnerRoots(c.Root, c.Ignored), c.Mark, limit)
	if c.Rejudged {
		changed = slices.DeleteFunc(changed, func(p string) bool {
			h, ok := c.Left[p]
			return !ok || contentPrint(runnerPath(c.Root, p)) != h
		})
		changed = changed[:min(len(changed), 5)]
	}
	if len(changed) == 0 {
		return nil
	}
	return &outcome.Failure{
		What: "the task weakened the judge: changed an installed test runner or library, which git does not track: " + strings.Join(changed, ", "),
		Hint: "a task that installs or upgrades dependencies changes their manifest or lock file too; to undo an edit, reinstall them (npm ci, pip install --force-reinstall)",
	}
}

// Changed fingerprints, by content, every installed runner file changed
// since the agent's mark, as the attempt left it: kept with the watch of
// an attempt that failed its judgement, for the resume.
func (c Runners) Changed() map[string]string {
	if c.Mark == 0 {
		return nil
	}
	return LeftPrints(c.Root, c.Since())
}

// Since lists every installed runner file changed since the mark: paths
// relative to the work tree when under it, absolute otherwise.
func (c Runners) Since() []string {
	return runnersChanged(c.Root, runnerRoots(c.Root, c.Ignored), c.Mark, 0)
}

// LeftPrints maps each path (relative to root, or absolute) to its
// content print.
func LeftPrints(root string, paths []string) map[string]string {
	out := map[string]string{}
	for _, p := range paths {
		out[p] = contentPrint(runnerPath(root, p))
	}
	return out
}

// runnerPath is the file runnersChanged names p.
func runnerPath(root, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return fsutil.Under(root, p)
}

// contentPrint is the SHA-256 of the file's bytes, "" when it cannot be read.
func contentPrint(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%x", sha256.Sum256(b))
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
