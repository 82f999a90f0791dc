package wave

import (
	"fmt"
	"io"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/planparse"
)

// IDs are the ids of the tasks of the wave w.
func IDs(w []*planparse.Task) []planparse.TaskID {
	ids := make([]planparse.TaskID, len(w))
	for i, t := range w {
		ids[i] = t.ID
	}
	return ids
}

// DryRun prints to out the waves --jobs would run.
func DryRun(out io.Writer, jobs int, waves [][]*planparse.Task) {
	fmt.Fprintf(out, "\nWaves (--jobs %d; a wave of several tasks runs them at once, each in its own work tree, committed in this order):\n", jobs)
	for i, w := range waves {
		mode := "alone, in the work tree"
		if len(w) > 1 {
			mode = "parallel"
		}
		fmt.Fprintf(out, "  wave %d: %s (%s)\n", i+1, strings.Join(Names(w), " "), mode)
	}
}

// Names are the ids of the tasks of the wave w, as strings.
func Names(w []*planparse.Task) []string {
	names := make([]string, len(w))
	for i, t := range w {
		names[i] = string(t.ID)
	}
	return names
}

// bigIndex is the index size (bytes) above which planx warns that a work
// tree per parallel task is expensive: about 10,000 tracked files. Measured
// (bench/README.md, "Parallel waves"): git worktree add takes 0.28 s at 200
// files and far longer at 20,000, where checking out every file per task
// can cost more than the parallelism saves.
const bigIndex = 1 << 20

// WarnCost says, once per run, what a parallel run cannot give in repo:
// a large index, a post-commit hook (postCommit) the waves' commits do not
// run.
func WarnCost(out *progress.Progress, repo *gitops.Repo, postCommit bool, waves [][]*planparse.Task) {
	wide := false
	for _, w := range waves {
		wide = wide || len(w) > 1
	}
	if !wide {
		return
	}
	if size := repo.Index().Size(); size > bigIndex {
		out.Warn("--jobs", fmt.Sprintf("the index is %d KiB (over %d KiB, about 10,000 files): each parallel task checks out a whole work tree, which may cost more than running the tasks in turn (--jobs 1)",
			size>>10, bigIndex>>10))
	}
	if postCommit {
		out.Warn("--jobs", "the post-commit hook does not run on the commits of parallel waves (they are made with git commit-tree; planx runs pre-commit, prepare-commit-msg and commit-msg itself); tasks that run alone get it")
	}
}
