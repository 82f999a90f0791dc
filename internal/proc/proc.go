package proc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Grace is how long a process group gets between SIGTERM and SIGKILL, and
// how long Run waits for output still buffered in the pipe.
const Grace = 2 * time.Second

// DefaultTailLines is used when Spec.TailLines is zero.
const DefaultTailLines = 20

// DefaultShell returns the interpreter used for Spec.Script when Spec.Shell
// is nil. -e stops a step at its first failing command and pipefail makes
// `go test ./... | tail` fail when the tests fail, which is what a person
// reading a plan step expects.
func DefaultShell() []string {
	return []string{"bash", "-e", "-o", "pipefail"}
}

// Spec describes one child process.
type Spec struct {
	Name string // for messages, e.g. "step 2" or "gate test"

	// Script is shell source, run as Shell followed by the path of a temporary
	// file holding the script. A file rather than `-c` because a single
	// argument is limited to 128 KiB on Linux, and rather than stdin because
	// commands in the script that read stdin would swallow the rest of it.
	Script string
	Shell  []string // nil means DefaultShell()
	// Args is an argv, used for agents. Exactly one of Script and Args is set.
	Args []string

	Dir     string
	Env     []string      // full environment; nil inherits planx's (as os/exec does)
	Stdin   io.Reader     // nil means /dev/null
	Timeout time.Duration // 0 means none

	// OutputPath receives the combined stdout and stderr (created or
	// truncated, parent directories created). Empty keeps only the tail.
	OutputPath string
	// MaxOutput caps the bytes OutputPath keeps (0: no cap); what is past it
	// is dropped from the file (counted in Result.Dropped, said at its end)
	// while Live and the tail still see everything.
	MaxOutput int64
	Live      io.Writer // optional copy of the output, e.g. a progress view
	TailLines int       // lines kept in Result.Tail; 0 means DefaultTailLines
	// Started, when set, is called with the child's process group id once it
	// runs, so a caller can record it and clean up after a crash of its own.
	Started func(pgid int)
	// Wrap, when set, rewrites the command before it starts: a sandbox
	// that confines the child (internal/sandbox) wraps it in its helper.
	Wrap func(*exec.Cmd) error
}

// Result is how a child process ended.
type Result struct {
	ExitCode    int // -1 when killed by a signal or never started
	Duration    time.Duration
	TimedOut    bool // Spec.Timeout or the context's deadline expired
	Interrupted bool // the context was cancelled (Ctrl-C, SIGTERM)
	Tail        string
	OutputPath  string
	Dropped     int64 // output bytes past Spec.MaxOutput, not in OutputPath
}

// OK reports a zero exit that was neither timed out nor interrupted.
func (r Result) OK() bool {
	return r.ExitCode == 0 && !r.TimedOut && !r.Interrupted
}

// Run starts the process described by s and waits for it and for every
// process it left in its process group. A non-zero exit is reported in the
// Result, not as an error: the error is for a process that could not start
// or output that could not be saved.
//
// Processes still running in the group after the main process exits are
// stopped too: a step cannot leave daemons behind, because they would
// outlive planx and keep writing to a log that is already committed.
func Run(ctx context.Context, s Spec) (Result, error) {
	res := Result{ExitCode: -1, OutputPath: s.OutputPath}
	if (s.Script == "") == (len(s.Args) == 0) {
		return res, fmt.Errorf("%s: exactly one of Script and Args must be set", s.Name)
	}
	if err := ctx.Err(); err != nil {
		markCtx(&res, err)
		return res, nil
	}
	argv, cleanup, err := commandLine(s)
	if err != nil {
		return res, fmt.Errorf("%s: %w", s.Name, err)
	}
	defer cleanup()
	file, err := createOutput(s.OutputPath)
	if err != nil {
		return res, fmt.Errorf("%s: output: %w", s.Name, err)
	}
	if file != nil {
		// Closed again (and checked) by sink.close on success; this one
		// covers the early returns.
		defer file.Close()
	}

	c, err := start(s, argv, file)
	if err != nil {
		return res, err
	}
	waitErr := c.wait(ctx, s.Timeout, &res)
	if c.cmd.ProcessState != nil {
		res.ExitCode = c.cmd.ProcessState.ExitCode()
	} else if waitErr != nil {
		return res, fmt.Errorf("%s: wait: %w", s.Name, waitErr)
	}
	n := s.TailLines
	if n == 0 {
		n = DefaultTailLines
	}
	res.Tail = c.out.tail.lines(n)
	res.Dropped = c.out.dropped
	if err := c.out.close(); err != nil {
		return res, fmt.Errorf("%s: output %s: %w", s.Name, s.OutputPath, err)
	}
	return res, nil
}

// commandLine returns the argv that runs s, and a cleanup that removes the
// temporary script file it may have written.
func commandLine(s Spec) (argv []string, cleanup func(), err error) {
	switch {
	case s.Script == "":
		return s.Args, func() {}, nil
	case s.Shell == nil && len(s.Script) <= maxInlineScript:
		// bash -c SCRIPT NAME: no temporary file to create and remove for
		// every step and gate, and NAME ($0) is what bash's error messages
		// start with ("planx-T001-step-1: line 3: ...").
		argv = append(append([]string(nil), DefaultShell()...), "-c", s.Script, "planx-"+slug(s.Name))
		return argv, func() {}, nil
	}
	script, err := writeScript(s.Name, s.Script)
	if err != nil {
		return nil, nil, err
	}
	argv = append(append([]string(nil), shellOf(s)...), script)
	return argv, func() { os.Remove(script) }, nil
}

// createOutput creates (or truncates) the output file and its parent
// directories; it returns nil for an empty path, which keeps only the tail.
func createOutput(path string) (*os.File, error) {
	if path == "" {
		return nil, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	return os.Create(path)
}

// markCtx records why the context ended: a deadline is a timeout (a task
// timeout implemented by the caller), anything else an interruption.
func markCtx(r *Result, err error) {
	if errors.Is(err, context.DeadlineExceeded) {
		r.TimedOut = true
	} else {
		r.Interrupted = true
	}
}

func shellOf(s Spec) []string {
	if s.Shell != nil {
		return s.Shell
	}
	return DefaultShell()
}

// maxInlineScript is the largest script passed as an argument; Linux caps
// one argument at 128 KiB (MAX_ARG_STRLEN), and a larger script goes
// through a temporary file.
const maxInlineScript = 64 << 10

// writeScript stores the script in a temporary file. Its name carries the
// spec's name because bash quotes it in error messages ("line 3: ...").
func writeScript(name, script string) (string, error) {
	f, err := os.CreateTemp("", "planx-"+slug(name)+"-*.sh")
	if err != nil {
		return "", fmt.Errorf("script: %w", err)
	}
	_, werr := f.WriteString(script)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("script: %w", err)
	}
	return f.Name(), nil
}

func slug(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			return r
		}
		return '-'
	}, s)
	if s == "" {
		return "run"
	}
	return s
}
