package gitops

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A task lists the replace refs before and after its executor (verify):
// two git processes per task for what is nearly always nothing. In a
// repository whose refs are files, what git lists under a prefix cannot
// change without a change to the files that hold them — the prefix's
// directory tree of loose refs and packed-refs — each of which git
// replaces by a rename (a new inode) or adds to a directory (a new
// modification time), and any write changes a file's change time. So Refs.List keeps its last listing of a prefix
// with the stat data of those files taken just before it ran, and reuses
// it while they are as they were. It asks git whenever it cannot tell:
// refs in a reftable, a file changed within the last seconds (a file
// system's clock may be coarse), a read that fails.

// seenRefs is a repository's listings kept under their stamps.
type seenRefs struct {
	mu   sync.Mutex
	seen map[string]listing // by prefix
}

type listing struct {
	stamp string
	refs  map[string]SHA
}

// recent is how new a file may be for its stat data to be trusted: a
// change within the same tick of a coarse clock would keep its time.
const recent = 2 * time.Second

// refsStamp is the stat data of what holds the refs under prefix in the
// common git directory common, at now; ok false when it cannot be trusted.
func refsStamp(common, prefix string, now time.Time) (stamp string, ok bool) {
	if common == "" {
		return "", false
	}
	if _, err := os.Lstat(filepath.Join(common, "reftable")); err == nil {
		return "", false
	}
	var b strings.Builder
	trusted := true
	add := func(p string, fi fs.FileInfo) bool {
		st, isStat := fi.Sys().(*syscall.Stat_t)
		// A link may point at refs whose changes its own stat data
		// does not show.
		if !isStat || fi.Mode()&fs.ModeSymlink != 0 || now.Sub(fi.ModTime()) < recent || now.Sub(time.Unix(0, changeTime(st))) < recent {
			trusted = false
			return false
		}
		fmt.Fprintf(&b, "%s %d %d %d %d %o\n", p, st.Ino, fi.Size(), fi.ModTime().UnixNano(), changeTime(st), fi.Mode())
		return true
	}
	for _, p := range []string{filepath.Join(common, "packed-refs"), filepath.Join(common, filepath.FromSlash(prefix))} {
		fi, err := os.Lstat(p)
		switch {
		case os.IsNotExist(err):
			b.WriteString(p + " absent\n")
			continue
		case err != nil:
			return "", false
		}
		if !fi.IsDir() {
			if !add(p, fi) {
				return "", false
			}
			continue
		}
		err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			fi, err := d.Info()
			if err != nil {
				return err
			}
			if !add(q, fi) {
				return fs.SkipAll
			}
			return nil
		})
		if err != nil {
			return "", false
		}
	}
	return b.String(), trusted
}

// reuse is the listing of prefix kept under stamp, if any.
func (s *seenRefs) reuse(prefix, stamp string) (map[string]SHA, bool) {
	if s == nil {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.seen[prefix]
	if !ok || l.stamp != stamp {
		return nil, false
	}
	return maps.Clone(l.refs), true
}

// keep keeps refs as the listing of prefix under stamp.
func (s *seenRefs) keep(prefix, stamp string, refs map[string]SHA) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen == nil {
		s.seen = map[string]listing{}
	}
	s.seen[prefix] = listing{stamp: stamp, refs: maps.Clone(refs)}
}
