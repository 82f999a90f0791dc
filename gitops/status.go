package gitops

import (
	"bytes"
	"context"
	"fmt"
	"strings"
)

// Change is one path that differs between HEAD, the index and the work tree.
type Change struct {
	Path     string // repo-relative, slash-separated
	OrigPath string // source of a rename or copy
	Index    byte   // X of XY: '.', 'M', 'A', 'D', 'R', 'C', 'T', 'U'; '?' untracked
	Work     byte   // Y of XY; '?' untracked
}

// Status lists every changed and untracked file, never ignored ones.
//
// Renames are off (--no-renames): a staged rename is a 'D' of the old path and
// an 'A' of the new one. That keeps the result independent of the user's
// status.renames config and the similarity heuristic, and every touched path
// appears as a Path of its own, which is what a "which files did this task
// touch" check needs. Untracked directories are expanded to their files
// (--untracked-files=all) so that each untracked file can be attributed too.
// Submodules are reported as git reports them by default.
func (r *Repo) Status(ctx context.Context) ([]Change, error) {
	out, err := r.run(ctx, nil, true, "status", "--porcelain=v2", "-z",
		"--untracked-files=all", "--ignored=no", "--no-renames")
	if err != nil {
		return nil, err
	}
	changes, _, err := parseStatus(out)
	return changes, err
}

// TrackedChanges lists the tracked files that differ between HEAD, the
// index and the work tree, as Status does but without untracked files:
// git then walks no directory for new files, which on a large tree is
// most of what a status costs.
func (ix Index) TrackedChanges(ctx context.Context) ([]Change, error) {
	out, err := ix.r.run(ctx, nil, true, "status", "--porcelain=v2", "-z",
		"--untracked-files=no", "--ignored=no", "--no-renames")
	if err != nil {
		return nil, err
	}
	changes, _, err := parseStatus(out)
	return changes, err
}

// Survey is the work tree as one git status saw it: what Status lists and
// the ignored entries, from a single walk of the tree. A run's preflight
// needs all three answers (untracked files for the secret scan, whether
// anything is staged or changed for the rollback commit, which ignored
// files exist), and on a large tree each walk costs as much as a commit.
type Survey struct {
	Changes []Change
	// Ignored lists the ignored paths that exist, a directory that an
	// ignore rule matches as one "dir/" entry (its contents not walked).
	Ignored []string
}

// Staged reports whether the index differs from HEAD.
func (s Survey) Staged() bool {
	for _, c := range s.Changes {
		if c.Index != '.' && c.Index != '?' {
			return true
		}
	}
	return false
}

// Survey runs git status once, ignored entries included (--ignored=matching).
func (r *Repo) Survey(ctx context.Context) (Survey, error) {
	out, err := r.run(ctx, nil, true, "status", "--porcelain=v2", "-z",
		"--untracked-files=all", "--ignored=matching", "--no-renames")
	if err != nil {
		return Survey{}, err
	}
	changes, ignored, err := parseStatus(out)
	return Survey{Changes: changes, Ignored: ignored}, err
}

// Dirty reports whether Status is non-empty: after a commit it says whether a
// hook left modified or new files behind.
func (r *Repo) Dirty(ctx context.Context) (bool, error) {
	ch, err := r.Status(ctx)
	return len(ch) > 0, err
}

// parseStatus reads git status --porcelain=v2 -z. Paths are taken verbatim:
// -z turns off quoting, so spaces, newlines and non-ASCII bytes arrive as is.
func parseStatus(out []byte) (changes []Change, ignored []string, err error) {
	recs := bytes.Split(out, []byte{0})
	for i := 0; i < len(recs); i++ {
		rec := string(recs[i])
		if rec == "" {
			continue
		}
		bad := func() ([]Change, []string, error) {
			return nil, nil, fmt.Errorf("git status: cannot parse record %q", rec)
		}
		var fields []string
		switch rec[0] {
		case '#': // headers
			continue
		case '!':
			if len(rec) < 3 {
				return bad()
			}
			ignored = append(ignored, rec[2:])
			continue
		case '?':
			if len(rec) < 3 {
				return bad()
			}
			changes = append(changes, Change{Path: rec[2:], Index: '?', Work: '?'})
			continue
		case '1': // 1 XY sub mH mI mW hH hI path
			fields = strings.SplitN(rec, " ", 9)
		case '2': // 2 XY sub mH mI mW hH hI Xscore path NUL origPath
			fields = strings.SplitN(rec, " ", 10)
		case 'u': // u XY sub m1 m2 m3 mW h1 h2 h3 path
			fields = strings.SplitN(rec, " ", 11)
		default:
			return bad()
		}
		want := map[byte]int{'1': 9, '2': 10, 'u': 11}[rec[0]]
		if len(fields) != want || len(fields[1]) != 2 || fields[want-1] == "" {
			return bad()
		}
		c := Change{Path: fields[want-1], Index: fields[1][0], Work: fields[1][1]}
		if rec[0] == '2' {
			if i+1 >= len(recs) {
				return bad()
			}
			i++
			c.OrigPath = string(recs[i])
		}
		changes = append(changes, c)
	}
	return changes, ignored, nil
}

// StageAll stages every change in the work tree, as git add -A does from the
// top level: deletions included, every ignore rule (.gitignore,
// info/exclude, core.excludesFile) and .gitattributes filters honoured.
func (ix Index) StageAll(ctx context.Context) error {
	_, err := ix.r.write(ctx, nil, "add", "-A")
	if err == nil {
		ix.r.stale = nil
	}
	return err
}
