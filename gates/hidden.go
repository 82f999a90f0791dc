package gates

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// hiddenTests reads `hidden_tests:`: a directory outside the repository
// holding tests the agent must not see (docs/judge.md, "Hidden tests"),
// absolute or under HOME (~/).
func (p configParser) hiddenTests(k, v *yaml.Node) (string, error) {
	s, err := p.str(k, v)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(s) && !strings.HasPrefix(s, "~/") {
		return "", p.errf(v, "write an absolute path, or one starting with ~/, outside the repository", "hidden_tests path %q is relative", s)
	}
	return s, nil
}

// HiddenDir is the hidden tests' directory of c, absolute and free of
// symbolic links, checked: it exists, is a directory, and is neither
// inside the repository's work tree root or git directory gitDir nor holds
// them (an agent works in those). "" when none is set.
func (c Config) HiddenDir(root, gitDir string) (string, error) {
	p := c.HiddenTests
	if p == "" {
		return "", nil
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("hidden_tests %s: %w", p, err)
		}
		p = filepath.Join(home, rest)
	}
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", fmt.Errorf("hidden_tests %s: %w", c.HiddenTests, err)
	}
	if fi, err := os.Stat(r); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("hidden_tests %s is not a directory", c.HiddenTests)
	}
	for _, d := range []string{root, gitDir} {
		if rd, err := filepath.EvalSymlinks(d); err == nil && (within(r, rd) || within(rd, r)) {
			return "", fmt.Errorf("hidden_tests %s is inside the repository or holds it (%s): the agent could read it there; keep the hidden tests outside", c.HiddenTests, rd)
		}
	}
	return r, nil
}

// within reports whether p is dir or beneath it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
