package command

import (
	"errors"
	"os/exec"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

// scriptCmds are testscript commands of planx's own.
func scriptCmds() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	return map[string]func(ts *testscript.TestScript, neg bool, args []string){
		// exitcode N prog args...: run prog and assert its exact exit code
		// (testscript's `! exec` only asserts "non-zero").
		"exitcode": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) < 2 {
				ts.Fatalf("usage: exitcode N prog args...")
			}
			want, err := strconv.Atoi(args[0])
			if err != nil {
				ts.Fatalf("exitcode: %v", err)
			}
			err = ts.Exec(args[1], args[2:]...)
			got := 0
			var ee *exec.ExitError
			switch {
			case errors.As(err, &ee):
				got = ee.ExitCode()
			case err != nil:
				ts.Fatalf("exitcode: %v", err)
			}
			if got != want {
				ts.Fatalf("%s exited %d, want %d", args[1], got, want)
			}
		},
	}
}
