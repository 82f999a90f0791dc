package record

import "strings"

// RunsRefPrefix is the namespace of every run's refs: under
// refs/planx/runs/<run id>/ the loop keeps what a run must not lose and
// review reads its history from. The names under it:
//
//	base            the rollback commit (the index of runs)
//	head            the last task commit of an aborted run
//	aborted         the work tree an abort took away
//	index, hidden   the index, and assume-unchanged files' bytes, before the run
//	kept/<n>        bytes a person wrote after a stop that recovery replaced
//	stops/<n>-<id>  the tree when an attempt stopped
//	folded/<id>     commits an executor made, folded into the task commit
//	work/<id>       a wave task's work, before integration
//	wave            the wave in flight
//	landing         the commit a wave's landing moves the branch to, while it does
//	worktrees/...   the slots of a run
const RunsRefPrefix = "refs/planx/runs/"

// RunRef is refs/planx/runs/<runID>/<name>.
func RunRef(runID, name string) string { return RunsRefPrefix + runID + "/" + name }

// ParseRunRef splits refs/planx/runs/<id>/<rest>; ok is false for any
// other ref or an empty id.
func ParseRunRef(ref string) (id, rest string, ok bool) {
	tail, ok := strings.CutPrefix(ref, RunsRefPrefix)
	if !ok {
		return "", "", false
	}
	id, rest, ok = strings.Cut(tail, "/")
	return id, rest, ok && id != ""
}

// The names of a run's refs that more than one package writes or reads.

// HeadRef keeps an aborted run's commits.
func HeadRef(runID string) string { return RunRef(runID, "head") }

// UndoneRefPrefix is the namespace of the runs `planx undo` took off
// their branch: outside refs/planx/runs/, so that `planx prune` keeps
// the commits reachable.
const UndoneRefPrefix = "refs/planx/undone/"

// UndoneRef keeps the commits of run runID that `planx undo` took off
// the branch.
func UndoneRef(runID string) string { return UndoneRefPrefix + runID }

// AbortedRef keeps the work tree an abort took away.
func AbortedRef(runID string) string { return RunRef(runID, "aborted") }

// WorkRef keeps a wave task's work before integration; WorkRef(id, "") is
// the prefix of them all.
func WorkRef(runID, task string) string { return RunRef(runID, "work/"+task) }

// WaveRef is where a wave's commits are staged while its integration gate
// runs.
func WaveRef(runID string) string { return RunRef(runID, "wave") }

// LandingRef names the commit a wave's landing is moving the branch to,
// from before the work tree changes until the branch has moved: a stop in
// between leaves it for the next command to take the landing back.
func LandingRef(runID string) string { return RunRef(runID, "landing") }

// WorktreeRef keeps what the run's work tree name held; WorktreeRef(id, "")
// is the prefix of them all.
func WorktreeRef(runID, name string) string { return RunRef(runID, "worktrees/"+name) }
