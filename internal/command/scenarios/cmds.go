package scenarios

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

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
		"left":  cmdLeft,
	}
}

// cmdLeft is `left`: a process runs (not a zombie) whose environment names
// a run of the repository in the current directory (PLANX_RUN_ID, which
// planx gives every step and agent), seen from this machine's /proc. It
// needs no pid file, so it also sees an agent's processes in a task space,
// whose own PID namespace gives them other pids. `! left` asserts none
// runs, and kills those that do.
func cmdLeft(ts *testscript.TestScript, neg bool, args []string) {
	runs, err := filepath.Glob(ts.MkAbs(".git/planx/runs/*"))
	if err != nil || len(runs) == 0 {
		ts.Fatalf("left: no run in .git/planx/runs")
	}
	found := runProcesses(runs)
	// The kernel ends a PID namespace's processes after its first one
	// died (killed with planx, its parent): on a loaded machine that
	// takes a moment, and a process on its way out is not one left.
	for wait := 0; neg && len(found) > 0 && wait < 100; wait++ {
		time.Sleep(100 * time.Millisecond)
		found = runProcesses(runs)
	}
	if neg && len(found) > 0 {
		for _, p := range found {
			_ = syscall.Kill(p.pid, syscall.SIGKILL)
		}
		ts.Fatalf("still running 10 s later (now killed): %s", leftNames(found))
	}
	if !neg && len(found) == 0 {
		ts.Fatalf("no process of the runs is running")
	}
}

// leftProcess is a running process of a run (cmdLeft).
type leftProcess struct {
	pid int
	run string
}

// runProcesses are the running processes of the runs whose directories
// are runs, by the PLANX_RUN_ID planx gives every process of a task.
func runProcesses(runs []string) []leftProcess {
	var found []leftProcess
	for _, r := range runs {
		mark := []byte("PLANX_RUN_ID=" + filepath.Base(r))
		for _, pid := range pidsWithEnv(mark) {
			found = append(found, leftProcess{pid, filepath.Base(r)})
		}
	}
	return found
}

func leftNames(ps []leftProcess) string {
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("pid %d (%s)", p.pid, p.run))
	}
	return strings.Join(out, ", ")
}

// pidsWithEnv are the running processes (zombies aside) whose environment
// holds the entry mark.
func pidsWithEnv(mark []byte) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !containsEntry(env, mark) {
			continue
		}
		if stat, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil {
			if i := bytes.LastIndexByte(stat, ')'); i > 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
				continue
			}
		}
		out = append(out, pid)
	}
	return out
}

func containsEntry(env, mark []byte) bool {
	for _, kv := range bytes.Split(env, []byte{0}) {
		if bytes.Equal(kv, mark) {
			return true
		}
	}
	return false
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
			if !Alive(pid) {
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

// Alive reports whether pid runs (a zombie counts as gone).
func Alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && len(s) > i+2 {
		return s[i+2] != 'Z'
	}
	return true
}
