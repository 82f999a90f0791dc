package gitops

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// RecordsMark is a point in the file system's time after which planx
// itself writes no record (planx/records/) until it has looked: planx takes
// one just before a task's executor starts and looks when the executor has
// ended. Anything under the records with a later inode change time was
// then written (or a file of it removed) by the executor's side. A change
// time, unlike a modification time, cannot be set by a process of the
// user: only by moving the system clock, which takes root.
type RecordsMark int64

// markWait bounds how long MarkRecords waits for the file system's clock
// to move (one kernel tick on Linux, a few milliseconds). A file system
// with coarser timestamps (whole seconds) is not waited for: a write in the
// same second as the mark then goes unseen.
const markWait = 50 * time.Millisecond

func (r *Repo) recordsMarkPath() string { return filepath.Join(r.CommonDir, "planx", "records-mark") }

// MarkRecords touches a marker file and returns its change time, once the
// file system's clock has moved past it (touching it again shows a later
// one): every write from then on gets a later change time than the mark,
// every write before it an earlier or equal one.
func (r *Repo) MarkRecords() (RecordsMark, error) {
	p := r.recordsMarkPath()
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
			return RecordsMark(first), err
		}
	}
	return RecordsMark(first), nil
}

// RecordsWrittenSince lists, as .git/planx/records/..., the record files
// and directories whose change time is after m: files written, and
// directories whose entries were added, removed or renamed.
func (r *Repo) RecordsWrittenSince(m RecordsMark) ([]string, error) {
	var out []string
	err := filepath.WalkDir(r.recordsDir(), func(p string, _ fs.DirEntry, err error) error {
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
			rel, _ := filepath.Rel(r.CommonDir, p)
			out = append(out, filepath.ToSlash(filepath.Join(".git", rel)))
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	return out, err
}

// DropRecordsWrittenSince removes the record files written after m and
// returns them: what they hold cannot be told from a forgery, and a record
// that is missing only costs a gate run or a weaker verdict from verify.
func (r *Repo) DropRecordsWrittenSince(m RecordsMark) ([]string, error) {
	written, err := r.RecordsWrittenSince(m)
	if err != nil {
		return nil, err
	}
	var dropped []string
	for _, rel := range written {
		p := filepath.Join(r.CommonDir, filepath.FromSlash(rel[len(".git/"):]))
		fi, err := os.Lstat(p)
		if err != nil || fi.IsDir() {
			continue
		}
		if err := os.Remove(p); err != nil {
			return dropped, err
		}
		dropped = append(dropped, rel)
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
