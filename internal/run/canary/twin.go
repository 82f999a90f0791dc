package canary

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planx-dev/planx/internal/testreport"
)

// twinFiles are the files of one twin (relative to the checkout, with
// slashes, and their text) and the canary place its test runs in.
type twinFiles struct {
	files map[string]string
	place string
}

// plantTwins writes, for each test of the gate named gate the task must
// fix (Named), a twin (testreport's twin.go) into dir, where lang's runner
// finds it: Python (unittest and pytest) and node. A test whose source planx cannot
// find by its ID gets none; Go tests get none (docs/judge.md says why).
func (c *Set) plantTwins(dir, gate, lang string) error {
	c.twins[gate] = nil
	planted := map[string]testreport.Twin{} // by ID without parameters: one twin runs them all
	for _, id := range c.fix[gate] {
		bare := strings.TrimSuffix(id, testreport.ParamSuffix(id))
		if tw, ok := planted[bare]; ok {
			c.twins[gate] = append(c.twins[gate], testreport.Twin{K: tw.K, Orig: id, Place: tw.Place})
			continue
		}
		k := c.ntwins
		tok := testreport.TwinToken(c.nonce, k)
		var tw twinFiles
		switch lang {
		case "python":
			tw = c.pyTwin(dir, id, tok)
		case "node":
			tw = c.nodeTwin(dir, id, tok)
		}
		if tw.files == nil || !slices.Contains(c.places[gate], tw.place) {
			continue
		}
		wrote, err := c.writeTwin(dir, tw)
		if err != nil {
			return err
		}
		if !wrote {
			continue
		}
		c.ntwins++
		planted[bare] = testreport.Twin{K: k, Orig: id, Place: tw.place}
		c.twins[gate] = append(c.twins[gate], planted[bare])
	}
	return nil
}

// writeTwin writes tw's files and says whether it did: one that is there
// already (which a fresh name never is) leaves the twin out.
func (c *Set) writeTwin(dir string, tw twinFiles) (bool, error) {
	names := make([]string, 0, len(tw.files))
	for rel := range tw.files {
		names = append(names, rel)
	}
	slices.Sort(names)
	for _, rel := range names {
		f := filepath.Join(dir, filepath.FromSlash(rel))
		if _, err := os.Lstat(f); !errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
	}
	for _, rel := range names {
		f := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.WriteFile(f, []byte(tw.files[rel]), 0o644); err != nil {
			return false, err
		}
		c.files = append(c.files, f)
	}
	return true, nil
}

// helperFile says whether rel (relative to dir, with slashes) is a test
// helper a twin copies under a fresh name: a regular file of the
// checkout, not a test file by the runner's conventions, and not one the
// task changed (the code under test is never copied: the twin runs
// against the same code as the original), nor pytest's conftest.py.
func (c *Set) helperFile(dir, rel, lang string) bool {
	if rel == "" || path.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../") || c.changed[rel] ||
		isRunnerTest(path.Base(rel), rel, lang) || path.Base(rel) == "conftest.py" {
		return false
	}
	st, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel)))
	return err == nil && st.Mode().IsRegular()
}
