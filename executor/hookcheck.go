package executor

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/planparse"
)

// fileState is what a file looked like before the commit hooks ran: its
// stat identity, and for planx's own files (the plan, the log), whose
// bytes planx has just written, the bytes themselves.
type fileState struct {
	exists  bool
	size    int64
	mtime   time.Time
	ctime   int64
	ino     uint64
	content []byte // nil: compare by stat only
}

type fileStates map[string]fileState

func stateOf(path string, keep bool) fileState {
	fi, err := os.Lstat(path)
	if err != nil {
		return fileState{}
	}
	s := fileState{exists: true, size: fi.Size(), mtime: fi.ModTime()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.ino, s.ctime = uint64(st.Ino), changeTime(st)
	}
	if keep && fi.Mode().IsRegular() {
		s.content, _ = os.ReadFile(path)
	}
	return s
}

func (a fileState) same(b fileState) bool {
	if a.exists != b.exists || a.size != b.size || !a.mtime.Equal(b.mtime) || a.ctime != b.ctime || a.ino != b.ino {
		return false
	}
	return a.content == nil || string(a.content) == string(b.content)
}

// snapshotCommitFiles records the commit's files just before git commit
// runs its hooks.
func (r *runner) snapshotCommitFiles(lt *execlog.Task) fileStates {
	s := fileStates{}
	for _, p := range lt.Files {
		s[p] = stateOf(relJoin(r.repo.Root, p), false)
	}
	for _, p := range []string{r.planRel, r.log.Path} {
		s[p] = stateOf(relJoin(r.repo.Root, p), true)
	}
	return s
}

// checkHookLeftovers reports files of the commit that a commit hook
// rewrote and left out of it (a formatter that did not stage its result
// again), rather than sweep them into the next task.
//
// Only the commit's own files are looked at (formatters and linters touch
// those), and only the ones that changed on disk while git commit ran are
// asked about: git says whether they still match what was committed
// (diff-files). A stat of every tracked file would cost as much as git
// commit's own scan in a large repository. planx's own two files, written
// just before, are compared byte for byte, so no timestamp granularity can
// hide a rewrite of them.
func (r *runner) checkHookLeftovers(ctx context.Context, t *planparse.Task, before fileStates) {
	var touched []string
	for p, b := range before {
		if !b.same(stateOf(relJoin(r.repo.Root, p), b.content != nil)) {
			touched = append(touched, p)
		}
	}
	if len(touched) == 0 {
		return
	}
	slices.Sort(touched)
	left, err := r.repo.Index().ModifiedTracked(ctx, touched...)
	if err != nil || len(left) == 0 {
		return
	}
	r.dirty = left
	shown := left
	if len(shown) > 3 {
		shown = append(shown[:3:3], fmt.Sprintf("and %d more", len(left)-3))
	}
	msg := fmt.Sprintf("a commit hook changed %d file(s) that are not in the commit: %s", len(left), strings.Join(shown, ", "))
	r.log.Issues = append(r.log.Issues, execlog.Issue{Task: string(t.ID), What: msg, Time: r.o.now()})
	r.out.Warn(t.ID, msg)
	// The tree is dirty anyway; the log on disk must say why.
	_ = r.log.WriteFile(r.repo.Root)
}
