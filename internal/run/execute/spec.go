package execute

import (
	"io"
	"os"
	"path"
	"path/filepath"

	"github.com/planx-dev/planx/internal/agent"
	"github.com/planx-dev/planx/planparse"
)

const (
	// specDocMax bounds how much of a spec document is read to find the
	// requirements a task cites: they are quoted from its first megabyte.
	specDocMax = 1 << 20
	// specFilesMax bounds the documents named from a spec directory such as
	// spec-kit's contracts/.
	specFilesMax = 20
)

// SpecContext names the spec documents of the plan's feature directory
// (spec-kit's spec.md, plan.md…, Kiro's requirements.md, design.md) and
// quotes the requirements the task cites; root is the repository's, plan
// the plan's path in it. Only regular files count: a symlink could reach
// outside the repository.
func SpecContext(root, plan string, format planparse.Format, t *planparse.Task) agent.Spec {
	docs, dirs := agent.SpecDocs(format)
	if docs == nil {
		return agent.Spec{}
	}
	dir := path.Dir(plan)
	var s agent.Spec
	for _, d := range docs {
		if p := path.Join(dir, d); p != plan && isRegularFile(inRoot(root, p)) {
			s.Files = append(s.Files, p)
		}
	}
	for _, d := range dirs {
		entries, _ := os.ReadDir(inRoot(root, path.Join(dir, d))) // a missing directory names nothing
		for i, e := range entries {
			if i == specFilesMax {
				s.Files = append(s.Files, path.Join(dir, d)+"/ (more files)")
				break
			}
			if e.Type().IsRegular() {
				s.Files = append(s.Files, path.Join(dir, d, e.Name()))
			}
		}
	}
	refs := agent.Citations(format, t)
	if len(refs) == 0 {
		return s
	}
	s.Source = path.Join(dir, docs[0])
	// An unreadable or missing document leaves every reference "not found",
	// which is what the agent must be told.
	doc, _ := readHead(inRoot(root, s.Source), specDocMax)
	s.Cited = agent.Quote(format, doc, refs)
	return s
}

// isRegularFile reports whether p is a regular file, not following a symlink.
func isRegularFile(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode().IsRegular()
}

// readHead reads at most limit bytes from the start of the regular file p.
func readHead(p string, limit int64) (string, error) {
	if !isRegularFile(p) {
		return "", os.ErrNotExist
	}
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit))
	return string(b), err
}

// inRoot is the path of p, slash-separated and relative to the repository,
// under its root.
func inRoot(root, p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
