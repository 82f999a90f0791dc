package command

import (
	"context"
	"os"
	"path/filepath"
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
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: false,
		Cmds:                scriptCmds(),
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, ".home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			for k, v := range gittest.Env(home) {
				env.Setenv(k, v)
			}
			return nil
		},
	})
}
