package records

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// Mark is a point in the file system's time after which planx
// itself writes no record (planx/records/) until it has looked: planx takes
// one just before a task's executor starts and looks when the executor has
// ended. Anything under the records with a later inode change time was
// then written (or a file of it removed) by the executor's side. A change
// time, unlike a modification time, cannot be set by a process of the
// user: only by moving the system clock, which takes root.
type Mark int64

// markWait bounds how long MarkRecords waits for the file system's clock
// to move (one kernel tick on Linux, a few milliseconds). A file system
// with coarser timestamps (whole seconds) is not waited for: a write in the
// same second as the mark then goes unseen.
const markWait = 50 * time.Millisecond

// markPath is the work tree's marker file, next to its records (not
// among them): planx/records-mark for the main work tree.
func (rs Store) markPath() string { return rs.dir + "-mark" }

// shown names a path under the common git dir as .git/... for messages.
func (rs Store) shown(p string) string {
	rel, _ := filepath.Rel(filepath.Dir(rs.common), p)
	return filepath.ToSlash(filepath.Join(".git", rel))
}

// Mark touches a marker file and returns its change time, once the
// file system's clock has moved past it (touching it again shows a later
// one): every write from then on gets a later change time than the mark,
// every write before it an earlier or equal one.
func (rs Store) Mark() (Mark, error) {
	p := rs.markPath()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return 0, err
	}
	touch := func() (int64, error) {
		if err := os.WriteFile(p, []byte(time.Now().UTC().Format(time.RFC3339Nano)+"\n"), 0o644); err != nil {
			return 0, err
		}
		return ctimeOf(p)
	}
	first, err := touch()
	if err != nil {
		return 0, err
	}
	for deadline := time.Now().Add(markWait); time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
		now, err := touch()
		if err != nil || now > first {
			return Mark(first), err
		}
	}
	return Mark(first), nil
}

// WrittenSince lists, as .git/planx/records/..., the record files
// and directories of this work tree whose change time is after m: files
// written, and directories whose entries were added, removed or renamed.
// The other work trees' are theirs: a run there writes them while a task
// runs here.
func (rs Store) WrittenSince(m Mark) ([]string, error) {
	abs, err := rs.writtenSince(m)
	out := make([]string, len(abs))
	for i, p := range abs {
		out[i] = rs.shown(p)
	}
	return out, err
}

func (rs Store) writtenSince(m Mark) ([]string, error) {
	var out []string
	err := filepath.WalkDir(rs.dir, func(p string, _ fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		c, err := ctimeOf(p)
		if err != nil {
			return err
		}
		if c > int64(m) {
			out = append(out, p)
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	return out, err
}

// DropWrittenSince removes the record files written after m and
// returns them: what they hold cannot be told from a forgery, and a record
// that is missing only costs a gate run or a weaker verdict from verify.
func (rs Store) DropWrittenSince(m Mark) ([]string, error) {
	written, err := rs.writtenSince(m)
	if err != nil {
		return nil, err
	}
	var dropped []string
	for _, p := range written {
		fi, err := os.Lstat(p)
		if err != nil || fi.IsDir() {
			continue
		}
		if err := os.Remove(p); err != nil {
			return dropped, err
		}
		dropped = append(dropped, rs.shown(p))
	}
	return dropped, nil
}

func ctimeOf(p string) (int64, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return 0, err
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return changeTime(st), nil
	}
	return fi.ModTime().UnixNano(), nil
}
