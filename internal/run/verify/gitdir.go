package verify

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
)

// Guard is a cheap fingerprint of the parts of the git directory that a task
// could use to change what git does later (config, hooks, info/) or to forge
// planx's evidence (refs/notes/planx, refs/planx/**). A task that writes
// there is refused: `.git/` is never a task's output. (planx's local records
// under planx/records are left out: planx writes them itself between an
// agent's attempts; they are guarded per executor run, see Records.)
//
// The refs of other runs (refs/planx/runs/<id>/ for an id not the run's
// own) are left out too: another planx run of the same repository, in
// another linked work tree, writes its own while this run's task runs. So
// are the other work trees' admin directories (worktrees/<name>/: their
// index, HEAD, logs and run state), which the fingerprint never reads.
type Guard string

// GuardOf returns repo's current fingerprint for the run own (its refs
// under refs/planx/runs/<own>/ are watched, other runs' are not): names,
// sizes, modes and modification times of the files, read with stat alone,
// and the values of planx's refs, loose or packed (no git child).
func GuardOf(repo *gitops.Repo, own string) Guard {
	commonDir, gitDir := repo.CommonDir, repo.GitDir
	var parts []string
	add := func(p string) {
		if fi, err := os.Lstat(p); err == nil {
			rel, _ := filepath.Rel(commonDir, p)
			parts = append(parts, fmt.Sprintf("%s %d %v %d", rel, fi.Size(), fi.Mode(), fi.ModTime().UnixNano()))
		}
	}
	add(filepath.Join(commonDir, "config"))
	for _, dir := range []string{"hooks", "info"} {
		d := filepath.Join(commonDir, dir)
		add(d)
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			add(filepath.Join(d, e.Name()))
		}
	}
	if gitDir != commonDir {
		add(filepath.Join(gitDir, "config.worktree"))
	}
	for name, v := range planxRefs(commonDir, own) {
		parts = append(parts, name+" "+v)
	}
	sort.Strings(parts)
	return Guard(strings.Join(parts, "\n"))
}

// planxRefs reads refs/notes/planx and refs/planx/** but other runs'
// refs, name → value: packed-refs' lines, overridden by loose files. A
// value, not a file's times: git packing the refs (gc) moves none.
func planxRefs(commonDir, own string) map[string]string {
	watched := func(name string) bool {
		if name == record.NoteRef {
			return true
		}
		rest, ok := strings.CutPrefix(name, "refs/planx/runs/")
		if !ok {
			return strings.HasPrefix(name, "refs/planx/")
		}
		id, _, _ := strings.Cut(rest, "/")
		return id == own
	}
	out := map[string]string{}
	if b, err := os.ReadFile(filepath.Join(commonDir, "packed-refs")); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, name, ok := strings.Cut(l, " "); ok && watched(name) {
				out[name] = v
			}
		}
	}
	read := func(p string) {
		rel, _ := filepath.Rel(commonDir, p)
		name := filepath.ToSlash(rel)
		if !watched(name) {
			return
		}
		fi, err := os.Lstat(p)
		if err != nil || fi.IsDir() {
			return
		}
		if !fi.Mode().IsRegular() {
			out[name] = fi.Mode().String()
			return
		}
		if b, err := os.ReadFile(p); err == nil {
			out[name] = strings.TrimSpace(string(b))
		}
	}
	read(filepath.Join(commonDir, filepath.FromSlash(record.NoteRef)))
	_ = filepath.WalkDir(filepath.Join(commonDir, "refs", "planx"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			rel, _ := filepath.Rel(commonDir, p)
			if id, ok := strings.CutPrefix(filepath.ToSlash(rel), "refs/planx/runs/"); ok && !strings.Contains(id, "/") && id != own {
				return filepath.SkipDir
			}
			return nil
		}
		read(p)
		return nil
	})
	return out
}

// Ref returns the value the fingerprint holds for the ref name ("" for
// none): the notes ref's commit, say, before and after a task.
func (g Guard) Ref(name string) string {
	for _, l := range strings.Split(string(g), "\n") {
		if n, v, ok := strings.Cut(l, " "); ok && n == name {
			return v
		}
	}
	return ""
}

// Changed lists what differs between two fingerprints.
func (g Guard) Changed(now Guard) []string {
	before := map[string]bool{}
	for _, l := range strings.Split(string(g), "\n") {
		before[l] = true
	}
	seen := map[string]bool{}
	var out []string
	for _, l := range strings.Split(string(now), "\n") {
		if l != "" && !before[l] {
			name, _, _ := strings.Cut(l, " ")
			if !seen[name] {
				out = append(out, ".git/"+filepath.ToSlash(name))
				seen[name] = true
			}
		}
	}
	nowSet := map[string]bool{}
	for _, l := range strings.Split(string(now), "\n") {
		name, _, _ := strings.Cut(l, " ")
		nowSet[name] = true
	}
	for l := range before {
		if name, _, _ := strings.Cut(l, " "); l != "" && !nowSet[name] && !seen[name] {
			out = append(out, ".git/"+filepath.ToSlash(name)+" (deleted)")
			seen[name] = true
		}
	}
	sort.Strings(out)
	return out
}
