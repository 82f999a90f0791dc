package executor

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/planx-dev/planx/internal/proc"
)

// A planx killed outright (SIGKILL, OOM, power) cannot stop the process
// group of the step, gate or agent it was running, nor the git commit in
// flight. Their ids are kept in small files next to the run state, written
// without fsync: they only matter while this boot's processes can exist.
// The next planx to take the lock kills an orphaned step and waits for an
// orphaned git commit (killing git mid-commit could leave a ref lock; letting
// it finish is safe, and resume then finds the commit in the history).

func (r *runner) childFile() string { return filepath.Join(r.repo.PlanxDir(), "child.pid") }
func (r *runner) gitFile() string   { return filepath.Join(r.repo.PlanxDir(), "git-commit.pid") }

// childStarted records a step's, gate's or agent's process group before it
// does any work.
func (r *runner) childStarted(pgid int) { writePid(r.childFile(), pgid) }

// childDone forgets it once it has exited, so a reused pid is never killed.
// The file is emptied, not removed: rewriting a file is cheaper than
// creating one, and this happens for every step and every commit.
func (r *runner) childDone() { forgetPid(r.childFile()) }

func (r *runner) gitStarted(pgid int) { writePid(r.gitFile(), pgid) }
func (r *runner) gitDone()            { forgetPid(r.gitFile()) }

func forgetPid(path string) {
	if err := os.Truncate(path, 0); err != nil && !os.IsNotExist(err) {
		_ = os.Remove(path)
	}
}

func writePid(path string, pid int) {
	_ = os.MkdirAll(filepath.Dir(path), 0o755)
	_ = os.WriteFile(path, []byte(strconv.Itoa(pid)), 0o644)
}

func readPid(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return n
}

// cleanOrphans runs under the lock, before a resumed run touches anything.
func (r *runner) cleanOrphans() {
	if pg := readPid(r.childFile()); pg != 0 {
		proc.KillGroup(pg)
		r.childDone()
	}
	if pg := readPid(r.gitFile()); pg != 0 {
		for i := 0; proc.GroupAlive(pg); i++ {
			if i == 0 {
				r.out.println("planx: waiting for the git commit (pid %d) the stopped planx left running", pg)
			}
			time.Sleep(50 * time.Millisecond)
		}
		r.gitDone()
	}
}
