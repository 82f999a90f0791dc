package gates

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/planx-dev/planx/internal/suggest"
	"go.yaml.in/yaml/v3"
)

var hiddenKeys = []string{"repo", "ref"}

// hiddenTests reads `hidden_tests:` into c: a directory outside the
// repository holding tests the agent must not see (docs/judge.md, "Hidden
// tests"), absolute or under HOME (~/); or a mapping naming another git
// repository there and the ref whose files are the tests.
func (p configParser) hiddenTests(c *Config, k, v *yaml.Node) error {
	hint := "write an absolute path, or one starting with ~/, outside the repository"
	path := func(k, v *yaml.Node) error {
		s, err := p.str(k, v)
		if err == nil && !filepath.IsAbs(s) && !strings.HasPrefix(s, "~/") {
			err = p.errf(v, hint, "hidden_tests path %q is relative", s)
		}
		c.HiddenTests = s
		return err
	}
	if v.Kind == yaml.ScalarNode {
		return path(k, v)
	}
	err := p.mapping(v, hiddenKeys, func(k, v *yaml.Node) error {
		switch k.Value {
		case "repo":
			return path(k, v)
		case "ref":
			var err error
			c.HiddenRef, err = p.str(k, v)
			return err
		}
		return p.errf(k, suggest.Hint(k.Value, hiddenKeys), "unknown hidden_tests key %q", k.Value)
	})
	if err == nil && (c.HiddenTests == "" || c.HiddenRef == "") {
		err = p.errf(v, "write repo: (a git repository outside this one) and ref: (a branch or tag of it)", "hidden_tests needs both repo and ref")
	}
	return err
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
