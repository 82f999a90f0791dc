package gitops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// Index is the staging area: what planx stages, what is staged, what
// staging leaves out (ignored files, entries hidden from git), and the
// index planx knows it left holding a commit's tree (so that the next
// staging can skip a scan). It shares that knowledge with the Repo it came
// from, whose commits set it.
type Index struct{ r *Repo }

// Index returns the repository's index.
func (r *Repo) Index() Index { return Index{r} }

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

func (ix Index) path() string { return filepath.Join(ix.r.GitDir, "index") }

// mark reads the index file's identity; ok is false when it cannot
// be read (no index yet, or a platform without inode numbers).
func (ix Index) mark() (indexMark, bool) {
	f, err := os.Open(ix.path())
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
func (ix Index) noteCommitted(sha SHA) {
	if m, ok := ix.mark(); ok {
		ix.r.clean = &cleanIndex{at: sha, mark: m}
		return
	}
	ix.r.clean = nil
}

// cleanAt reports whether the index is, untouched, the one planx left
// holding base's tree.
func (ix Index) cleanAt(base SHA) bool {
	if ix.r.clean == nil || ix.r.clean.at != base {
		return false
	}
	m, ok := ix.mark()
	return ok && m == ix.r.clean.mark
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
//
// Paths in except are left as base has them in the index, whatever the
// work tree holds: changes of a person's that are no part of the work.
func (ix Index) StageChanges(ctx context.Context, base SHA, except ...string) ([]string, error) {
	if len(except) > 0 {
		if err := checkArg("revision", string(base)); err != nil {
			return nil, err
		}
		if _, err := ix.r.write(ctx, nulList(except), "-c", "core.literalPathspecs=true",
			"reset", "-q", string(base), "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
			return nil, fmt.Errorf("unstage %d path(s): %w", len(except), err)
		}
	}
	trusted := ix.cleanAt(base)
	args := []string{"add", "-A"}
	if trusted {
		args = append(args, "--verbose")
	}
	out, err := ix.r.write(ctx, nil, withExcept(args, except)...)
	ix.r.clean, ix.r.stale = nil, nil
	if err != nil {
		return nil, err
	}
	if trusted {
		if paths, ok := ix.parseAddVerbose(out); ok {
			return paths, nil
		}
	}
	cs, err := ix.StagedChanges(ctx, base)
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

// withExcept limits a git add -A to every path but except: pathspec magic,
// which core.literalPathspecs would turn off, so it is turned off here.
func withExcept(add, except []string) []string {
	if len(except) == 0 {
		return add
	}
	args := append([]string{"-c", "core.literalPathspecs=false"}, add...)
	args = append(args, "--", ":/")
	for _, p := range except {
		args = append(args, ":(exclude,top,literal)"+p)
	}
	return args
}

// restaged notes that paths were staged from the work tree.
func (ix Index) restaged(paths ...string) {
	ix.r.stale = slices.DeleteFunc(ix.r.stale, func(p string) bool { return slices.Contains(paths, p) })
}

// parseAddVerbose reads git add --verbose: one "add 'path'" per path
// staged with new content and one "remove 'path'" per path removed (git
// prints these in the C locale planx runs it in; see add_to_index and
// update_callback in git's read-cache.c and builtin/add.c). Paths are
// printed raw, so a name holding a newline could be misread: every path
// read is checked against the work tree (added ones exist, removed ones do
// not), and any doubt returns ok=false.
func (ix Index) parseAddVerbose(out []byte) ([]string, bool) {
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
		_, err := os.Lstat(filepath.Join(ix.r.Root, filepath.FromSlash(p)))
		switch {
		case added && err != nil, !added && !errors.Is(err, fs.ErrNotExist):
			return nil, false
		}
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return slices.Compact(paths), true
}
