package command

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

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
		"alive": cmdAlive,
	}
}

// cmdAlive is `alive PIDFILE...`: every process whose pid one of the files
// holds runs (a zombie, ended but not yet waited for, does not). `! alive`
// asserts that none runs, and kills the ones that do, so that a failed
// test leaves no process behind. A file may be a pattern
// (.git/planx/runs/*/agent/T002.pid); one that names no file fails either
// way, since a pid file never written proves nothing.
func cmdAlive(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 0 {
		ts.Fatalf("usage: alive PIDFILE...")
	}
	var running, gone []string
	for _, pat := range args {
		files, err := filepath.Glob(ts.MkAbs(pat))
		if err != nil || len(files) == 0 {
			ts.Fatalf("alive: no pid file %s", pat)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			ts.Check(err)
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil || pid <= 0 {
				ts.Fatalf("alive: %s holds no pid: %q", f, b)
			}
			what := fmt.Sprintf("%s (pid %d)", filepath.Base(f), pid)
			if !alive(pid) {
				gone = append(gone, what)
				continue
			}
			running = append(running, what)
			if neg {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
	if neg && len(running) > 0 {
		ts.Fatalf("still running (now killed): %s", strings.Join(running, ", "))
	}
	if !neg && len(gone) > 0 {
		ts.Fatalf("not running: %s", strings.Join(gone, ", "))
	}
}
