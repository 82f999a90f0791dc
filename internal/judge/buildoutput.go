package judge

import (
	"path"
	"slices"
	"strings"
)

// BuildOutput reports ignored paths that tools make while they build and
// test (caches, dependencies, compiled files): an agent that ran the
// tests leaves them, and they hide no source.
func BuildOutput(p string) bool {
	dirs := []string{"node_modules", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache",
		".tox", ".venv", "venv", "target", "build", "dist", "out", ".cache", ".next", "coverage", ".gradle"}
	for _, seg := range strings.Split(strings.TrimSuffix(p, "/"), "/") {
		if slices.Contains(dirs, seg) {
			return true
		}
	}
	switch path.Ext(p) {
	case ".pyc", ".pyo", ".o", ".a", ".so", ".class", ".log":
		return true
	}
	return false
}
