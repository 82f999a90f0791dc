package verify

import (
	"context"
	"os"
	"slices"
	"syscall"
	"time"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fsutil"
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

// CommitFiles is what a commit's files looked like just before git commit
// ran its hooks.
type CommitFiles map[string]fileState

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

// SnapshotCommit records the commit's files in the work tree at root just
// before git commit runs its hooks; planx's own files (own: the plan, the
// log) byte for byte.
func SnapshotCommit(root string, files, own []string) CommitFiles {
	s := CommitFiles{}
	for _, p := range files {
		s[p] = stateOf(fsutil.Under(root, p), false)
	}
	for _, p := range own {
		s[p] = stateOf(fsutil.Under(root, p), true)
	}
	return s
}

// HookLeftovers lists the files of the commit that a commit hook rewrote
// and left out of it (a formatter that did not stage its result again),
// for the caller to report rather than sweep them into the next task.
//
// Only the commit's own files are looked at (formatters and linters touch
// those), and only the ones that changed on disk while git commit ran are
// asked about: git says whether they still match what was committed
// (diff-files). A stat of every tracked file would cost as much as git
// commit's own scan in a large repository. planx's own files, written
// just before, are compared byte for byte, so no timestamp granularity can
// hide a rewrite of them.
func (before CommitFiles) HookLeftovers(ctx context.Context, repo *gitops.Repo) []string {
	var touched []string
	for p, b := range before {
		if !b.same(stateOf(fsutil.Under(repo.Root, p), b.content != nil)) {
			touched = append(touched, p)
		}
	}
	if len(touched) == 0 {
		return nil
	}
	slices.Sort(touched)
	left, err := repo.Index().ModifiedTracked(ctx, touched...)
	if err != nil {
		return nil
	}
	return left
}
