//go:build unix

package proc

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func run(t *testing.T, s Spec) Result {
	t.Helper()
	if s.OutputPath == "" {
		s.OutputPath = filepath.Join(t.TempDir(), "out.log")
	}
	r, err := Run(context.Background(), s)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return r
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// gone reports whether pid no longer runs. A zombie counts as gone: it is
// dead, merely not reaped yet by whichever process adopted it.
func gone(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i > 0 && len(b) > i+2 && b[i+2] == 'Z'
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for !gone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d still running", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// firstPid reads the pid a script printed as its first output line.
func firstPid(t *testing.T, output string) int {
	t.Helper()
	line, _, _ := strings.Cut(output, "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("no pid in output %q", output)
	}
	return pid
}

func TestExitCodes(t *testing.T) {
	t.Parallel()
	for _, code := range []int{0, 1, 3, 42} {
		r := run(t, Spec{Name: "exit", Args: []string{"bash", "-c", fmt.Sprintf("exit %d", code)}})
		if r.ExitCode != code {
			t.Errorf("exit %d: ExitCode = %d", code, r.ExitCode)
		}
		if r.OK() != (code == 0) {
			t.Errorf("exit %d: OK() = %v", code, r.OK())
		}
		if r.TimedOut || r.Interrupted {
			t.Errorf("exit %d: TimedOut=%v Interrupted=%v", code, r.TimedOut, r.Interrupted)
		}
	}
}

func TestOutputFileAndTail(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "a", "b", "step.log")
	script := "for i in $(seq 1 100); do echo out $i; echo err $i >&2; done"
	r := run(t, Spec{Name: "step 1", Script: script, OutputPath: out, TailLines: 3})
	if r.OutputPath != out {
		t.Errorf("OutputPath = %q, want %q", r.OutputPath, out)
	}
	got := readFile(t, out)
	var want strings.Builder
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&want, "out %d\nerr %d\n", i, i)
	}
	if got != want.String() {
		t.Errorf("output file has %d bytes, want %d (stdout and stderr interleaved in order)", len(got), want.Len())
	}
	if r.Tail != "err 99\nout 100\nerr 100" {
		t.Errorf("Tail = %q", r.Tail)
	}

	r = run(t, Spec{Name: "default tail", Script: "seq 1 50"})
	lines := strings.Split(r.Tail, "\n")
	if len(lines) != DefaultTailLines || lines[0] != "31" || lines[len(lines)-1] != "50" {
		t.Errorf("default Tail = %q", r.Tail)
	}
}

func TestOutputReplacesOldFile(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "out.log")
	if err := os.WriteFile(out, []byte("stale output from an earlier attempt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, Spec{Name: "x", Script: "echo fresh", OutputPath: out})
	if got := readFile(t, out); got != "fresh\n" {
		t.Errorf("output = %q, want the file truncated", got)
	}
}

func TestScriptStopsAtFirstFailure(t *testing.T) {
	t.Parallel()
	r := run(t, Spec{Name: "step", Script: "echo one\nfalse\necho two\n"})
	if r.ExitCode != 1 || r.Tail != "one" {
		t.Errorf("bash -e: ExitCode=%d Tail=%q, want 1 and only \"one\"", r.ExitCode, r.Tail)
	}
	r = run(t, Spec{Name: "pipe", Script: "false | cat\necho after\n"})
	if r.ExitCode != 1 || r.Tail != "" {
		t.Errorf("pipefail: ExitCode=%d Tail=%q, want 1 and no output", r.ExitCode, r.Tail)
	}
	r = run(t, Spec{Name: "plain", Shell: []string{"bash"}, Script: "false\necho two\n"})
	if r.ExitCode != 0 || r.Tail != "two" {
		t.Errorf("Shell override: ExitCode=%d Tail=%q, want 0 and \"two\"", r.ExitCode, r.Tail)
	}
}

// Scripts run as bash -c with the step's name as $0 (so errors name the
// step), or, past the argument size limit, from a temporary file; both
// behave the same.
func TestScriptInlineAndFromFile(t *testing.T) {
	t.Parallel()
	r := run(t, Spec{Name: "T001 step 2", Script: "echo ok\nno-such-command-here\n"})
	if r.ExitCode != 127 || !strings.HasPrefix(r.Tail, "ok\nplanx-T001-step-2: line 2: no-such-command-here") {
		t.Errorf("inline: ExitCode=%d Tail=%q", r.ExitCode, r.Tail)
	}
	big := "x=" + strings.Repeat("a", maxInlineScript) + "\necho ${#x}\nfalse\necho never\n"
	r = run(t, Spec{Name: "big", Script: big})
	if r.ExitCode != 1 || r.Tail != fmt.Sprint(maxInlineScript) {
		t.Errorf("from a file: ExitCode=%d Tail=%q", r.ExitCode, r.Tail)
	}
}

func TestScriptReadingStdinDoesNotEatScript(t *testing.T) {
	t.Parallel()
	r := run(t, Spec{Name: "stdin", Script: "cat\necho done\n", Stdin: strings.NewReader("input\n")})
	if r.ExitCode != 0 || r.Tail != "input\ndone" {
		t.Errorf("ExitCode=%d Tail=%q", r.ExitCode, r.Tail)
	}
}

func TestStdin(t *testing.T) {
	t.Parallel()
	r := run(t, Spec{Name: "cat", Args: []string{"cat"}, Stdin: strings.NewReader("hello\nworld\n")})
	if r.Tail != "hello\nworld" {
		t.Errorf("Tail = %q", r.Tail)
	}
	start := time.Now()
	r = run(t, Spec{Name: "cat", Args: []string{"cat"}})
	if r.ExitCode != 0 || r.Tail != "" || time.Since(start) > 2*time.Second {
		t.Errorf("nil Stdin: ExitCode=%d Tail=%q after %v, want immediate EOF", r.ExitCode, r.Tail, time.Since(start))
	}
}

func TestEnvAndDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if os.Getenv("HOME") == "" {
		t.Skip("needs HOME set in the test's environment")
	}
	r := run(t, Spec{
		Name:   "env",
		Script: `echo "$FOO|${HOME:-}|$(pwd -P)"`,
		Dir:    dir,
		Env:    []string{"FOO=bar baz", "PATH=" + os.Getenv("PATH")}, // HOME is not passed on
	})
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := "bar baz||" + real; r.Tail != want {
		t.Errorf("Tail = %q, want %q", r.Tail, want)
	}
}

func TestLive(t *testing.T) {
	t.Parallel()
	var live bytes.Buffer
	out := filepath.Join(t.TempDir(), "out.log")
	run(t, Spec{Name: "live", Script: "echo a; echo b >&2", Live: &live, OutputPath: out})
	if live.String() != "a\nb\n" || readFile(t, out) != "a\nb\n" {
		t.Errorf("Live = %q, file = %q", live.String(), readFile(t, out))
	}
}

func TestTimeoutKillsProcessTree(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "out.log")
	start := time.Now()
	r, err := Run(context.Background(), Spec{
		Name:       "tree",
		Script:     "sleep 30 &\necho $!\nsleep 30 | cat\nwait\n",
		Timeout:    500 * time.Millisecond,
		OutputPath: out,
	})
	if err != nil {
		t.Fatal(err)
	}
	if elapsed := time.Since(start); elapsed > 3*time.Second {
		t.Errorf("Run took %v, want the tree killed within ~3s", elapsed)
	}
	if !r.TimedOut || r.Interrupted || r.OK() || r.ExitCode != -1 {
		t.Errorf("Result = %+v, want TimedOut with ExitCode -1", r)
	}
	waitGone(t, firstPid(t, readFile(t, out)))
}

func TestTimeoutEscalatesToSIGKILL(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "out.log")
	start := time.Now()
	r, err := Run(context.Background(), Spec{
		Name:       "stubborn",
		Script:     "trap '' TERM\nsleep 30 &\necho $!\nwait\n",
		Timeout:    500 * time.Millisecond,
		OutputPath: out,
	})
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	if elapsed < Grace || elapsed > Grace+2*time.Second {
		t.Errorf("Run took %v, want about Timeout+Grace", elapsed)
	}
	if !r.TimedOut || r.ExitCode != -1 {
		t.Errorf("Result = %+v", r)
	}
	waitGone(t, firstPid(t, readFile(t, out)))
}

func TestBackgroundJobDoesNotOutliveStep(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "out.log")
	start := time.Now()
	r := run(t, Spec{Name: "bg", Script: "sleep 30 &\necho $!\n", OutputPath: out})
	if elapsed := time.Since(start); elapsed > Grace {
		t.Errorf("Run took %v waiting for a background job holding the output", elapsed)
	}
	if !r.OK() {
		t.Errorf("Result = %+v, want OK: the step itself succeeded", r)
	}
	waitGone(t, firstPid(t, readFile(t, out)))
}

func TestContextCancelInterrupts(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	out := filepath.Join(t.TempDir(), "out.log")
	start := time.Now()
	r, err := Run(ctx, Spec{Name: "c", Script: "sleep 30 &\necho $!\nwait\n", OutputPath: out})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Interrupted || r.TimedOut || r.OK() {
		t.Errorf("Result = %+v, want Interrupted", r)
	}
	if elapsed := time.Since(start); elapsed > 3*time.Second {
		t.Errorf("Run took %v", elapsed)
	}
	waitGone(t, firstPid(t, readFile(t, out)))

	r, err = Run(ctx, Spec{Name: "after", Args: []string{"true"}})
	if err != nil || !r.Interrupted || r.ExitCode != -1 {
		t.Errorf("cancelled before start: %+v, %v", r, err)
	}
}

func TestContextDeadlineIsTimeout(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	r, err := Run(ctx, Spec{Name: "d", Args: []string{"sleep", "30"}})
	if err != nil {
		t.Fatal(err)
	}
	if !r.TimedOut || r.Interrupted {
		t.Errorf("Result = %+v, want TimedOut", r)
	}
}

func TestRunErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]Spec{
		"missing program": {Name: "agent", Args: []string{filepath.Join(dir, "no-such-agent")}},
		"both":            {Name: "both", Script: "true", Args: []string{"true"}},
		"neither":         {Name: "neither"},
		"output dir":      {Name: "out", Script: "true", OutputPath: filepath.Join(blocker, "x.log")},
		"missing dir":     {Name: "dir", Script: "true", Dir: filepath.Join(dir, "nope")},
	}
	for name, s := range cases {
		_, err := Run(context.Background(), s)
		if err == nil {
			t.Errorf("%s: no error", name)
		} else if !strings.HasPrefix(err.Error(), s.Name+": ") {
			t.Errorf("%s: error %q does not name the spec", name, err)
		}
	}
}
