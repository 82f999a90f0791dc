package gaterun

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// A gate's clean checkout has no ignored file of the work tree: the
// entries the gates may need there (node_modules/, a local config, a
// checked-out submodule) are linked in, and the links go before anything
// else is done in the checkout, so that nothing follows them back into
// the work tree.

// Link is one symbolic link LinkIgnored made.
type Link struct {
	path string
	dir  bool // it took the place of an empty directory (a submodule's)
}

// LinkIgnored makes, in the checkout wt, a symbolic link to each of the
// entries of root (ignored files, submodules) that still exist, where the
// checkout has nothing or an empty directory, and returns the links made.
func LinkIgnored(root, wt string, entries []string) []Link {
	var made []Link
	var linked []string
	for _, e := range entries {
		e = strings.TrimSuffix(e, "/")
		src := filepath.Join(root, filepath.FromSlash(e))
		if _, err := os.Lstat(src); err != nil || !filepath.IsLocal(filepath.FromSlash(e)) ||
			slices.ContainsFunc(linked, func(l string) bool { return under(l, e) }) {
			continue // nothing is made through a link, into the work tree
		}
		dst := filepath.Join(wt, filepath.FromSlash(e))
		if os.MkdirAll(filepath.Dir(dst), 0o755) != nil {
			continue
		}
		wasDir := false
		if fi, err := os.Lstat(dst); err == nil && fi.IsDir() {
			wasDir = os.Remove(dst) == nil // a submodule's empty directory; a full one stays
		}
		if os.Symlink(src, dst) == nil {
			made, linked = append(made, Link{dst, wasDir}), append(linked, e)
		} else if wasDir {
			_ = os.Mkdir(dst, 0o755)
		}
	}
	return made
}

// UnlinkIgnored removes the links LinkIgnored made (a link only: what a
// gate put in its place is git clean's), putting back the empty
// directories they replaced, so that the checkout is as git made it.
func UnlinkIgnored(made []Link) {
	for _, l := range made {
		if fi, err := os.Lstat(l.path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			continue
		}
		if os.Remove(l.path) == nil && l.dir {
			_ = os.Mkdir(l.path, 0o755)
		}
	}
}

// under says p is dir or inside it (slash-separated, relative).
func under(dir, p string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// DepEnvs are the dependency environments among the ignored entries a
// checkout would link: node_modules/ and virtual environments.
func DepEnvs(root string, ignored []string) []string {
	var out []string
	for _, e := range ignored {
		dir := strings.TrimSuffix(e, "/")
		if dir == e {
			continue // a file
		}
		switch path.Base(dir) {
		case "node_modules", ".venv", "venv":
			out = append(out, e)
			continue
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(dir+"/pyvenv.cfg"))); err == nil {
			out = append(out, e)
		}
	}
	return out
}

// Linkable are the entries of ignored a checkout links (LinkIgnored):
// every one but caches (CacheEntry) and those in except.
func Linkable(ignored []string, except ...string) []string {
	return slices.DeleteFunc(slices.Clone(ignored), func(e string) bool { return CacheEntry(e) || slices.Contains(except, e) })
}

// CacheEntry reports an ignored entry a tool rebuilds on its own and
// trusts without looking at the sources: bytecode (an "unchecked-hash"
// .pyc is loaded whatever its .py says) and test runners' caches. The
// judge's checkouts never link one; the gates make their own.
func CacheEntry(e string) bool {
	switch path.Base(strings.TrimSuffix(e, "/")) {
	case "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis":
		return true
	}
	switch path.Ext(strings.TrimSuffix(e, "/")) {
	case ".pyc", ".pyo":
		return true
	}
	return false
}
