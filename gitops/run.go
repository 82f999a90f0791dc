package gitops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"time"
)

// GitError is a git child that failed. Stderr is trimmed; ExitCode is -1 when
// git could not be started or was killed.
type GitError struct {
	Args     []string
	ExitCode int
	Stderr   string
	err      error // the exec error, or a sentinel such as ErrLocked
}

func (e *GitError) Error() string {
	msg := fmt.Sprintf("git %s: exit %d", strings.Join(e.Args, " "), e.ExitCode)
	if e.Stderr != "" {
		msg += ": " + e.Stderr
	} else if e.err != nil && e.ExitCode < 0 {
		msg += ": " + e.err.Error()
	}
	return msg
}

// Unwrap exposes ErrLocked for a lock-contention failure so callers can test
// any git error with errors.Is, retried or not.
func (e *GitError) Unwrap() error { return e.err }

// lockRE matches git's message for a held lock file (index.lock, a ref's
// .lock, packed-refs.lock...). The path is captured for error messages.
var lockRE = regexp.MustCompile(`Unable to create '([^']*\.lock)': File exists`)

// dropEnv reports the variables not passed on to git. The GIT_* ones are
// those git exports to hooks to pin the repository location: inherited by a
// planx started from a hook they would make every git child act on the hook's
// repository or index, whatever -C says. LC_ALL, GIT_TERMINAL_PROMPT and
// GIT_NO_REPLACE_OBJECTS are replaced by planx's own values (GIT_REPLACE_REF_BASE
// goes with the last: there are no replacements to find).
func dropEnv(key string) bool {
	switch key {
	case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX",
		"GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "GIT_IMPLICIT_WORK_TREE",
		"GIT_INTERNAL_SUPER_PREFIX", "LC_ALL", "GIT_TERMINAL_PROMPT",
		"GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE":
		return true
	}
	return false
}

// noReplace is in the environment of every git process planx runs (run
// adds it to whatever environment the command was given). A replace ref
// (refs/replace/*, `git replace`) makes git read one object for another:
// honoured, it would make planx check out, diff and gate something other
// than what a commit holds (a clean checkout showing a weakened test while
// the commit keeps the real one). planx reads the objects as stored; the
// hooks git runs for planx inherit the setting. go-git, for the few reads
// planx makes without a git process, knows no replace refs.
const noReplace = "GIT_NO_REPLACE_OBJECTS=1"

// ReplaceRefs is where git keeps replace refs.
const ReplaceRefs = "refs/replace/"

// baseEnv is os.Environ less dropEnv, plus the variables that make git's
// output parseable and stop it from ever waiting for a person.
func baseEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !dropEnv(k) {
			env = append(env, kv)
		}
	}
	return append(env, "LC_ALL=C", "GIT_TERMINAL_PROMPT=0")
}

// lockRetry says how long a write waits for somebody else's lock.
type lockRetry struct {
	attempts int
	minWait  time.Duration
	maxWait  time.Duration
}

func defaultLockRetry() lockRetry {
	return lockRetry{attempts: 20, minWait: 50 * time.Millisecond, maxWait: 100 * time.Millisecond}
}

// runner is the process layer shared by Open (which has no Repo yet) and Repo.
type runner struct {
	git   string // the git binary, looked up in PATH once
	dir   string
	env   []string
	retry lockRetry
	// started, when set, gets git's process group (its own, see
	// CommitOptions.Started) as soon as git runs.
	started func(pgid int)
	pinned  []string // -c key=value pairs given to every command (Config.Pin)
	hooks   bool     // the command runs the user's hooks (see interruptible)
	// seen are ref listings kept while the refs' files are unchanged
	// (refseen.go), shared by the runners copied from this one.
	seen *seenRefs
}

func (g *runner) gitPath() string {
	if g.git == "" {
		return "git" // exec looks it up, and says so when it is missing
	}
	return g.git
}

// run executes git -C dir args. A read passes read=true so it never takes
// optional locks (status refreshing the index would race the user's git).
func (g *runner) run(ctx context.Context, stdin []byte, read bool, args ...string) ([]byte, error) {
	full := make([]string, 0, len(args)+3+len(g.pinned))
	full = append(append(full, g.pinned...), "-C", g.dir)
	if read {
		full = append(full, "--no-optional-locks")
	}
	full = append(full, args...)
	if err := ctx.Err(); err != nil {
		return nil, &GitError{Args: args, ExitCode: -1, err: err}
	}
	cmd := exec.Command(g.gitPath(), full...)
	env := g.env
	if env == nil {
		env = os.Environ()
	}
	// A copy: g.env is shared by the runners copied from this one.
	cmd.Env = append(slices.Clip(env), noReplace)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	// git runs in a process group of its own, with its hooks: a Ctrl-C at
	// the terminal reaches planx alone, which stops git and its hooks
	// together (see interruptible). A hook's child that keeps git's output
	// pipes open cannot hold planx: Wait closes them soon after git exits.
	ownProcessGroup(cmd)
	cmd.WaitDelay = pipeWait
	err := cmd.Start()
	if err == nil {
		if g.started != nil {
			g.started(cmd.Process.Pid)
		}
		err = interruptible(ctx, cmd, g.hooks)
		if g.hooks && !errors.Is(err, ErrStillRunning) {
			// git has exited: nothing its hooks started outlives it.
			endGroup(cmd.Process.Pid)
		}
	}
	if err == nil {
		return stdout.Bytes(), nil
	}
	ge := &GitError{Args: args, ExitCode: -1, Stderr: strings.TrimSpace(stderr.String()), err: err}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		ge.ExitCode = ee.ExitCode()
	}
	if errors.Is(err, ErrStillRunning) {
		ge.err = err // wraps ctx.Err() too
	} else if ctx.Err() != nil {
		ge.err = ctx.Err()
	} else if lockRE.MatchString(ge.Stderr) {
		ge.err = ErrLocked
		// Keep only git's first line: the rest is advice to delete the lock,
		// which planx must not echo as if it were its own suggestion.
		ge.Stderr, _, _ = strings.Cut(ge.Stderr, "\n")
	}
	// Stdout rides along for callers that need it (commit prints
	// "nothing to commit" there).
	return stdout.Bytes(), ge
}

// write runs a command that takes a lock, retrying while another process holds
// it. The lock is never removed: it may belong to a live git the user started.
func (g *runner) write(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	var lastErr error
	for i := 0; i < max(g.retry.attempts, 1); i++ {
		if i > 0 {
			wait := g.retry.minWait
			if span := g.retry.maxWait - g.retry.minWait; span > 0 {
				wait += rand.N(span)
			}
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return nil, ctx.Err()
			case <-t.C:
			}
		}
		out, err := g.run(ctx, stdin, false, args...)
		if err == nil || !errors.Is(err, ErrLocked) {
			return out, err
		}
		lastErr = err
	}
	return nil, fmt.Errorf("gave up after %d attempts (another git process is running, or one crashed and left its lock; planx never removes it): %w", max(g.retry.attempts, 1), lastErr)
}

// Git runs git in r.Root with planx's environment and returns its stdout.
// A nil stdin means no input. It does not retry locks; the error wraps
// ErrLocked when one was held.
func (r *Repo) Git(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	var in []byte
	if stdin != nil {
		var err error
		if in, err = io.ReadAll(stdin); err != nil {
			return nil, fmt.Errorf("git %s: reading stdin: %w", strings.Join(args, " "), err)
		}
		if in == nil {
			in = []byte{}
		}
	}
	out, err := r.run(ctx, in, false, args...)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// How long planx waits for git's output pipes after git exited, and for git
// to exit after it was asked to stop.
const (
	pipeWait = 2 * time.Second
	stopWait = 10 * time.Second
	// hookGrace is how long a hook has to end on SIGTERM before it and
	// what it started are killed.
	hookGrace = 2 * time.Second
)

// interruptible waits for git. When ctx ends first, git itself is never
// signalled: killed mid-write, git can leave its index.lock or a ref lock
// behind (git write-tree does under SIGTERM). A git that runs the user's
// hooks (hooks set) has its hooks, and what they started, terminated
// instead (stopHooks), so the command fails the ordinary way and cleans
// up; every other git command is short and is let finish. Either way planx
// waits for git to exit up to stopWait; a git that outlives that is left
// running, not killed: its pid is known to the caller (CommitOptions.Started)
// and the next planx waits for it.
func interruptible(ctx context.Context, cmd *exec.Cmd, hooks bool) error {
	done := make(chan error, 1)
	go func() {
		err := cmd.Wait()
		if errors.Is(err, exec.ErrWaitDelay) {
			err = nil // git succeeded; a process it left kept the pipes open
		}
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	stop := time.NewTimer(stopWait)
	defer stop.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	kill := time.Now().Add(hookGrace)
	for {
		if hooks {
			// Again and again: a hook may start processes after a signal.
			// One that ignores SIGTERM would keep git, and its
			// index.lock, past planx's exit: after the grace it is killed.
			sig := sigTerm
			if time.Now().After(kill) {
				sig = sigKill
			}
			stopHooks(cmd.Process.Pid, sig)
		}
		select {
		case err := <-done:
			if err == nil {
				return nil // git finished its work
			}
			return fmt.Errorf("%w (interrupted)", err)
		case <-stop.C:
			return fmt.Errorf("git (pid %d) %w %s after the interrupt; left running: %w", cmd.Process.Pid, ErrStillRunning, stopWait, ctx.Err())
		case <-tick.C:
		}
	}
}
