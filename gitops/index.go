package gitops

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// indexMark identifies one version of the index file. Git never edits the
// index in place: every write is a new file renamed over the old one, so
// the inode, size, modification time and trailing checksum together change
// whenever anybody writes it.
type indexMark struct {
	ino   uint64
	size  int64
	mtime int64
	tail  [32]byte // the checksum: 20 bytes (SHA-1) or 32 (SHA-256) at the end
}

// cleanIndex records that the index held exactly the tree of commit at as
// of mark: set after planx itself committed the index, cleared by any
// staging.
type cleanIndex struct {
	at   SHA
	mark indexMark
}

func (r *Repo) indexPath() string { return filepath.Join(r.GitDir, "index") }

// markIndex reads the index file's identity; ok is false when it cannot
// be read (no index yet, or a platform without inode numbers).
func (r *Repo) markIndex() (indexMark, bool) {
	f, err := os.Open(r.indexPath())
	if err != nil {
		return indexMark{}, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return indexMark{}, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || fi.Size() < 32 {
		return indexMark{}, false
	}
	m := indexMark{ino: st.Ino, size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	if _, err := f.ReadAt(m.tail[:], fi.Size()-32); err != nil {
		return indexMark{}, false
	}
	return m, true
}

// noteCommitted records that the index now holds the tree of commit sha.
func (r *Repo) noteCommitted(sha SHA) {
	if m, ok := r.markIndex(); ok {
		r.clean = &cleanIndex{at: sha, mark: m}
		return
	}
	r.clean = nil
}

// indexCleanAt reports whether the index is, untouched, the one planx left
// holding base's tree.
func (r *Repo) indexCleanAt(base SHA) bool {
	if r.clean == nil || r.clean.at != base {
		return false
	}
	m, ok := r.markIndex()
	return ok && m == r.clean.mark
}

// StageChanges stages every change in the work tree (git add -A, as
// StageAll) and returns the paths whose staged content now differs from
// commit base, sorted. Files the last CommitIndexWith spliced in are listed
// when git add restages them, whether they changed since or not.
//
// When the index is still the one planx left holding base's tree, git add
// itself says what it changed (--verbose), so the list costs no process of
// its own; this matters in large repositories, where each process reading
// the index costs tens of milliseconds. Otherwise (somebody staged or
// committed in between, or git's words cannot be read back unambiguously)
// the index is compared with base by git diff-index.
func (r *Repo) StageChanges(ctx context.Context, base SHA) ([]string, error) {
	trusted := r.indexCleanAt(base)
	args := []string{"add", "-A"}
	if trusted {
		args = append(args, "--verbose")
	}
	out, err := r.write(ctx, nil, args...)
	r.clean, r.stale = nil, nil
	if err != nil {
		return nil, err
	}
	if trusted {
		if paths, ok := r.parseAddVerbose(out); ok {
			return paths, nil
		}
	}
	cs, err := r.StagedChanges(ctx, base)
	if err != nil {
		return nil, err
	}
	paths := make([]string, len(cs))
	for i, c := range cs {
		paths[i] = c.Path
	}
	slices.Sort(paths)
	return paths, nil
}

// restaged notes that paths were staged from the work tree.
func (r *Repo) restaged(paths ...string) {
	r.stale = slices.DeleteFunc(r.stale, func(p string) bool { return slices.Contains(paths, p) })
}

// parseAddVerbose reads git add --verbose: one "add 'path'" per path
// staged with new content and one "remove 'path'" per path removed (git
// prints these in the C locale planx runs it in; see add_to_index and
// update_callback in git's read-cache.c and builtin/add.c). Paths are
// printed raw, so a name holding a newline could be misread: every path
// read is checked against the work tree (added ones exist, removed ones do
// not), and any doubt returns ok=false.
func (r *Repo) parseAddVerbose(out []byte) ([]string, bool) {
	var paths []string
	for line := range bytes.Lines(out) {
		s := strings.TrimSuffix(string(line), "\n")
		var p string
		var added bool
		switch {
		case strings.HasPrefix(s, "add '") && strings.HasSuffix(s, "'") && len(s) > len("add ''"):
			p, added = s[len("add '"):len(s)-1], true
		case strings.HasPrefix(s, "remove '") && strings.HasSuffix(s, "'") && len(s) > len("remove ''"):
			p = s[len("remove '") : len(s)-1]
		default:
			return nil, false
		}
		_, err := os.Lstat(filepath.Join(r.Root, filepath.FromSlash(p)))
		switch {
		case added && err != nil, !added && !errors.Is(err, fs.ErrNotExist):
			return nil, false
		}
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return slices.Compact(paths), true
}
