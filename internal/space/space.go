package space

import (
	"errors"
	"path/filepath"
	"strings"
)

// HelperArg is the first argument that makes planx the space helper
// instead of the command line tool (see Main).
const HelperArg = "__planx-space"

// ErrUnsupported is returned where the platform has no task spaces.
var ErrUnsupported = errors.New("space: task spaces need Linux")

// Options say what a space is made over.
type Options struct {
	// Root is the work tree: inside the space it is an overlay at the same
	// path, over the real directory, which is never written.
	Root string
	// Dir is the space's own state: its layers. It is created if missing;
	// it must be neither inside Root nor contain it. Close removes it.
	Dir string
	// Persist are paths (absolute, existing) the program writes through
	// to the machine, live: bound into the space over its layers (the
	// state directory planx gives an agent, credentials a CLI refreshes).
	// What is written there is neither in Changes nor in Outside.
	Persist []string
	// At, when set, is where the program sees Root instead: Root is bound
	// there, written through, with no layer (Changes is then empty), and
	// Root's own path shows the real directory copy-on-write like the rest
	// of the machine. For a directory that is planx's own (the judge's
	// checkout), moved out from under the directories that hold it, so
	// that no tool that searches parent directories (go.work, conftest.py,
	// node_modules, a runner's configuration) finds the user's files above
	// it. An absolute path that does not exist on the machine.
	At string
	// Hide are directories (absolute, existing) the program must not
	// read: each is an empty, read-only directory in the space (hidden
	// tests the judge adds to its own checkout only).
	Hide []string
	// TreeOnly makes a lighter space: only the work tree is layered (an
	// overlay at its own path, as always), but for its .git directory,
	// which is the real one, written through as the rest of the machine
	// is (no pivot into a root of layers, no private /dev); /proc is fresh
	// for the PID namespace. For a plan's own steps, which may write
	// outside the repository (caches, files and fifos the user's scripts
	// share) and use git (commit, stash) as they do without a space.
	// Persist, At and Hide are then refused; Outside and GitChanges list
	// nothing.
	TreeOnly bool
}

// ChangeSet is what a task changed under a directory, as paths relative to
// it with forward slashes, sorted.
type ChangeSet struct {
	// Written are the files (regular files, symbolic links) created or
	// changed in content or mode.
	Written []string
	// Deleted are the files that existed in the real tree and are gone in
	// the space (a file replaced by a directory is deleted; its new
	// contents are Written).
	Deleted []string
	// gone are the paths removed as a whole (whiteouts, a directory
	// replaced by a file, a file replaced by a directory): Apply removes
	// them with everything beneath.
	gone []string
}

// Empty reports whether nothing changed.
func (c ChangeSet) Empty() bool { return len(c.Written) == 0 && len(c.Deleted) == 0 }

// Write is one path written outside the work tree, as Outside lists it.
type Write struct {
	Path    string // absolute, as the program saw it
	Deleted bool   // the program removed it (a whiteout)
}

// within reports whether p is dir or beneath it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// inGit reports whether rel (slash-separated, relative to the work tree)
// is the git directory or beneath it.
func inGit(rel string) bool { return rel == ".git" || strings.HasPrefix(rel, ".git/") }
