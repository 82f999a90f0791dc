package scenarios

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/space"
	"github.com/rogpeppe/go-internal/testscript"
)

// Dir is where the scenarios are, from a group package's directory.
const Dir = "../../testdata/script"

// Main is a group package's TestMain: the test binary, run as planx (by
// the scenarios' exec and by tests that symlink it), calls planx. (The
// scenarios get their hermetic environment in Params' Setup; the
// process's own, whose HOME finds the go build cache, stays as it is.)
func Main(m *testing.M, planx func() int) {
	testscript.Main(m, map[string]func(){
		"planx": func() { os.Exit(planx()) },
	})
}

// Run runs the scenarios of the group named by the package's directory
// (go test runs a test binary in its package's directory), so a group
// package cannot run another group's scenarios.
func Run(t *testing.T) {
	testscript.Run(t, Params("", groupFiles(t), nil))
}

// RunPlumbing runs the group's scenarios that commit (run_, recover_,
// agent_) again with the commit path large repositories get (write-tree,
// commit-tree, update-ref, the plan and the log spliced into the tree):
// the test repositories are small, so Run sees git commit, which small
// ones get. -short (the inner loop, and the race detector's pass in CI)
// leaves it out: the same scenarios ran once, and the plumbing path has
// unit tests (gitops, land); the full run takes both paths.
func RunPlumbing(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the scenarios ran through git commit; go test without -short runs them through plumbing too")
	}
	files := groupFiles(t, "run", "recover", "agent")
	if len(files) == 0 {
		t.Skip("no scenario of this group commits again through plumbing")
	}
	testscript.Run(t, Params("", files, map[string]string{"PLANX_SMALL_INDEX": "0"}))
}

// groupFiles are the scenarios of the working directory's group; with
// only, those of them whose prefix is one of only.
func groupFiles(t *testing.T, only ...string) []string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	all, err := files(Dir, filepath.Base(wd))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range all {
		if only == nil || slices.ContainsFunc(only, func(p string) bool { return matches(f, p) }) {
			out = append(out, f)
		}
	}
	if only == nil && len(out) == 0 {
		t.Fatalf("no scenario in %s belongs to group %q (scenarios.Groups)", Dir, filepath.Base(wd))
	}
	return out
}

// Params are testscript's parameters for the scenarios in dir or files,
// with the hermetic git environment and extra on top.
func Params(dir string, files []string, extra map[string]string) testscript.Params {
	return testscript.Params{
		Dir:                 dir,
		Files:               files,
		RequireExplicitExec: false,
		Cmds:                scriptCmds(),
		Condition: func(cond string) (bool, error) {
			if cond == "pytest" {
				return pytestPython() != "", nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, ".home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			for k, v := range gittest.Env(home) {
				env.Setenv(k, v)
			}
			// Scripts that run a real go share the build cache (a cache:
			// sharing it changes no result) and never fetch a toolchain.
			if c := goCache(); c != "" {
				env.Setenv("GOCACHE", c)
			}
			env.Setenv("GOTOOLCHAIN", "local")
			// [pytest] scripts run the interpreter that has it (PYTHON*
			// reaches the gates).
			env.Setenv("PYTHON_WITH_PYTEST", pytestPython())
			for k, v := range extra {
				env.Setenv(k, v)
			}
			env.Defer(func() { dropSpaces(env.WorkDir) })
			return nil
		},
	}
}

// dropSpaces removes the state of the task spaces whose work tree is in
// the script's directory work: a script that ends with its run stopped
// leaves its step space for a resume that never comes, and such state
// lives outside $WORK (in /var/tmp/planx-spaces when $WORK holds the
// other candidates), where nothing else would remove it.
func dropSpaces(work string) {
	for _, parent := range space.StateCandidates() {
		states, _ := os.ReadDir(parent)
		for _, st := range states {
			dir := filepath.Join(parent, st.Name())
			target, err := os.ReadFile(filepath.Join(dir, "target"))
			t := string(target)
			if err == nil && (t == work || strings.HasPrefix(t, work+string(filepath.Separator))) {
				_ = space.RemoveAll(dir)
			}
		}
	}
}

// goCache is the go build cache of the user running the tests.
func goCache() string {
	if c := os.Getenv("GOCACHE"); c != "" {
		return c
	}
	if c, err := os.UserCacheDir(); err == nil {
		return filepath.Join(c, "go-build")
	}
	return ""
}

// pytestPython is a Python interpreter that can import pytest (the one on
// PATH, else Debian's), or "" where there is none.
var pytestPython = sync.OnceValue(func() string {
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(py, "-c", "import pytest").Run() == nil {
			if p, err := exec.LookPath(py); err == nil {
				return p
			}
		}
	}
	return ""
})
