package proc

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A planx killed outright (SIGKILL, OOM, power) cannot stop the process
// group of the step, gate or agent it was running, nor the git commit in
// flight. Their ids are kept in small files next to the run state, written
// without fsync: they only matter while this boot's processes can exist.
// The next planx to take the lock kills an orphaned step and waits for an
// orphaned git commit (killing git mid-commit could leave a ref lock; letting
// it finish is safe, and resume then finds the commit in the history).

// Pids are those files, in the directory of planx's run state (dir). The
// zero Pids records nothing: a wave's tasks run at once, and one file
// cannot name them all.
type Pids struct{ dir string }

// PidsIn are the pid files in dir, the directory of the run's state (not
// a dry run's: it starts nothing).
func PidsIn(dir string) Pids { return Pids{dir: dir} }

func (p Pids) childFile() string { return filepath.Join(p.dir, "child.pid") }
func (p Pids) gitFile() string   { return filepath.Join(p.dir, "git-commit.pid") }

// ChildStarted records a step's, gate's or agent's process group before it
// does any work.
func (p Pids) ChildStarted(pgid int) {
	if p.dir != "" {
		writePid(p.childFile(), pgid)
	}
}

// Started is ChildStarted for Spec.Started: nil when nothing is recorded.
func (p Pids) Started() func(int) {
	if p.dir == "" {
		return nil
	}
	return p.ChildStarted
}

// ChildDone forgets it once it has exited, so a reused pid is never killed.
// The file is emptied, not removed: rewriting a file is cheaper than
// creating one, and this happens for every step and every commit.
func (p Pids) ChildDone() {
	if p.dir != "" {
		forgetPid(p.childFile())
	}
}

// GitStarted and GitDone record the git commit in flight, which the next
// planx waits for rather than kills.
func (p Pids) GitStarted(pgid int) { writePid(p.gitFile(), pgid) }
func (p Pids) GitDone()            { forgetPid(p.gitFile()) }

// Child and Git read what ChildStarted and GitStarted recorded: the group
// and its leader's start time (0 when unknown: a file an older planx wrote,
// or a system without /proc); pgid 0 when none is recorded.
func (p Pids) Child() (pgid int, start uint64) { return readPid(p.childFile()) }
func (p Pids) Git() (pgid int, start uint64)   { return readPid(p.gitFile()) }

func forgetPid(path string) {
	if err := os.Truncate(path, 0); err != nil && !os.IsNotExist(err) {
		_ = os.Remove(path)
	}
}

// writePid records a process group leader's pid and start time: after a
// crash the pid alone could name an unrelated process that reused it.
func writePid(path string, pid int) {
	_ = os.MkdirAll(filepath.Dir(path), 0o755)
	rec := strconv.Itoa(pid) + " " + strconv.FormatUint(StartTime(pid), 10)
	_ = os.WriteFile(path, []byte(rec), 0o644)
}

func readPid(path string) (pid int, start uint64) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0
	}
	p, st, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	pid, _ = strconv.Atoi(p)
	start, _ = strconv.ParseUint(st, 10, 64)
	return pid, start
}
