package gitops

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Guard is a cheap fingerprint of the parts of the git directory that a task
// could use to change what git does later (config, hooks, info/) or to forge
// planx's evidence (refs/notes/planx, refs/planx/**). A task that writes
// there is refused: `.git/` is never a task's output. (planx's local records
// under planx/records are left out: planx writes them itself between an
// agent's attempts; they are guarded per executor run, see RecordsMark.)
type Guard string

// Guard returns the current fingerprint: names, sizes, modes and modification
// times, read with stat alone (no git child, no file contents).
func (c Config) Guard() Guard {
	var parts []string
	add := func(p string) {
		if fi, err := os.Lstat(p); err == nil {
			rel, _ := filepath.Rel(c.commonDir, p)
			parts = append(parts, fmt.Sprintf("%s %d %v %d", rel, fi.Size(), fi.Mode(), fi.ModTime().UnixNano()))
		}
	}
	add(filepath.Join(c.commonDir, "config"))
	for _, dir := range []string{"hooks", "info"} {
		d := filepath.Join(c.commonDir, dir)
		add(d)
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			add(filepath.Join(d, e.Name()))
		}
	}
	if c.gitDir != c.commonDir {
		add(filepath.Join(c.gitDir, "config.worktree"))
	}
	add(filepath.Join(c.commonDir, "refs", "notes", "planx"))
	_ = filepath.WalkDir(filepath.Join(c.commonDir, "refs", "planx"), func(p string, _ os.DirEntry, err error) error {
		if err == nil {
			add(p)
		}
		return nil
	})
	// A ref can also move inside packed-refs: keep planx's lines of it.
	if b, err := os.ReadFile(filepath.Join(c.commonDir, "packed-refs")); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if _, name, ok := strings.Cut(l, " "); ok && (name == "refs/notes/planx" || strings.HasPrefix(name, "refs/planx/")) {
				parts = append(parts, "packed-refs:"+name+" "+l)
			}
		}
	}
	sort.Strings(parts)
	return Guard(strings.Join(parts, "\n"))
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
