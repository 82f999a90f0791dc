package command

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"planx": func() {
			os.Exit(Main(context.Background(), os.Args, StdIO()))
		},
	})
}

// TestScripts runs the end-to-end scenarios in testdata/script against the real
// planx binary (re-executed test binary) and the real git.
func TestScripts(t *testing.T) {
	testscript.Run(t, scriptParams("testdata/script", nil, nil))
}

// TestScriptsPlumbing runs the scenarios that commit again with the commit
// path large repositories get (write-tree, commit-tree, update-ref, the
// plan and the log spliced into the tree): the test repositories are small,
// so TestScripts sees git commit, which small ones get.
func TestScriptsPlumbing(t *testing.T) {
	var files []string
	for _, glob := range []string{"run_*.txtar", "recover_*.txtar", "agent_*.txtar"} {
		m, err := filepath.Glob(filepath.Join("testdata/script", glob))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("only %d scenarios found", len(files))
	}
	testscript.Run(t, scriptParams("", files, map[string]string{"PLANX_SMALL_INDEX": "0"}))
}

func scriptParams(dir string, files []string, extra map[string]string) testscript.Params {
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
			return nil
		},
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
