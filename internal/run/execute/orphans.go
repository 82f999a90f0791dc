package execute

import (
	"strings"
	"time"

	"github.com/planx-dev/planx/internal/proc"
	"github.com/planx-dev/planx/internal/progress"
)

// Pids are the run's pid files (proc.Pids).
type Pids = proc.Pids

// PidsIn are the pid files in dir (proc.PidsIn).
func PidsIn(dir string) Pids { return proc.PidsIn(dir) }

// CleanOrphans runs under the lock, before a resumed run touches anything.
func CleanOrphans(p Pids, out *progress.Progress) {
	if pg, start := p.Child(); pg != 0 {
		if proc.OrphanGroup(pg, start) {
			proc.KillGroup(pg)
		}
		p.ChildDone()
	}
	if pg, start := p.Git(); pg != 0 {
		for i := 0; proc.OrphanGroup(pg, start); i++ {
			if i == 0 {
				out.Println("planx: waiting for the git commit (pid %d) the stopped planx left running", pg)
			}
			time.Sleep(50 * time.Millisecond)
		}
		p.GitDone()
	}
}

// CleanRun kills what is left of the steps and agents of the run runID
// (and what they started, detached or not) after a planx that was killed
// outright: CleanOrphans reaches the one process group a serial run
// records, not a wave's agents, which record none, nor a process that
// left its group with setsid. Left running, they write on into the work
// tree or the slot where the resumed run does the task again, and that
// commit takes their late writes. Run it under the lock, after
// CleanOrphans (which lets a git commit in flight finish), before a resumed
// or aborted run touches anything. Then the work left in task spaces
// planx never took out is recovered: the stopped attempt's (KeepSpace),
// then the others' (RecoverSpaces).
func CleanRun(runID string, out *progress.Progress) {
	if runID == "" {
		return
	}
	if killed := proc.KillMarked(runMark(runID)); len(killed) > 0 {
		out.Println("planx: killed %d processes the stopped run left running: %s", len(killed), strings.Join(killed, ", "))
	}
}
