package executor

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gitops"
)

// environPrint is what an agent could change outside the repository to
// fool the judge: the user's global git configuration (a core.hooksPath
// that switches off the pre-commit hook, a global excludes file that hides
// files) and the programs on PATH (a fake `sh` that passes every gate). It
// is taken before an agent runs and compared after.
type environPrint map[string]string // what → fingerprint

// takeEnvironPrint fingerprints the global git files by content and each
// PATH directory by its entries' names, sizes, modes and times.
func takeEnvironPrint(path string) environPrint {
	p := environPrint{}
	for _, f := range gitops.GlobalConfigFiles() {
		if b, err := os.ReadFile(f); err == nil {
			p["git config "+f] = fmt.Sprintf("%x", sha256.Sum256(b))
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			fi, err := e.Info()
			if err != nil {
				continue
			}
			p["PATH "+filepath.Join(dir, e.Name())] = fmt.Sprintf("%d %v %d", fi.Size(), fi.Mode(), fi.ModTime().UnixNano())
		}
	}
	return p
}

// changed lists what differs from an earlier print.
func (p environPrint) changed(now environPrint) []string {
	var out []string
	for k, v := range now {
		switch old, ok := p[k]; {
		case !ok:
			out = append(out, "new "+k)
		case old != v:
			out = append(out, "changed "+k)
		}
	}
	for k := range p {
		if _, ok := now[k]; !ok {
			out = append(out, "removed "+k)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		return strings.Compare(a[strings.IndexByte(a, ' '):], b[strings.IndexByte(b, ' '):])
	})
	return out
}
