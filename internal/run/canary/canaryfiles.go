package canary

import (
	"fmt"
	"go/parser"
	"go/token"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/planx-dev/planx/internal/testreport"
)

// canaryMessage is the failure every failing canary asks for.
const canaryMessage = "planx canary: this test must fail"

// canary is the file of place p's canaries for lang (its name in p and
// its text): CanaryFails tests that fail, each by another assertion form
// of the language's runner (code under test that patched one of them
// does not escape the others), and one that passes.
func (c *Set) canary(dir, p, lang string, i int) (name, body string, err error) {
	token := testreport.CanaryToken(c.nonce, i)
	switch lang {
	case "go":
		pkg, err := testPackage(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			return "", "", err
		}
		return fmt.Sprintf("zz_planxcanary_%s_%d_test.go", c.nonce, i), goCanary(pkg, token), nil
	case "python":
		return fmt.Sprintf("test_planxcanary_%s_%d.py", c.nonce, i), pythonCanary(token, c.namesakes), nil
	case "node":
		return fmt.Sprintf("planxcanary-%s-%d.test.cjs", c.nonce, i), c.nodeCanary(dir, token), nil
	}
	return "", "", fmt.Errorf("no canaries for %s", lang)
}

// testPackage is the package clause of a test file in dir: the canary
// joins that package (internal or external), so it runs in the same test
// binary as the user's tests there, with the same code linked in.
func testPackage(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), "_test.go") || !e.Type().IsRegular() {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, e.Name()), nil, parser.PackageClauseOnly)
		if err == nil {
			return f.Name.Name, nil
		}
	}
	return "", fmt.Errorf("%s: no test file with a package clause", dir)
}

func goCanary(pkg, token string) string {
	return fmt.Sprintf(`package %s

import "testing"

func Test%[2]s_Fails1(t *testing.T) { t.Fatal(%[3]q) }

func Test%[2]s_Fails2(t *testing.T) { t.Error(%[3]q) }

func Test%[2]s_Fails3(t *testing.T) { t.FailNow() }

func Test%[2]s_Passes(t *testing.T) {}
`, pkg, token, canaryMessage)
}

// pythonCanary is a unittest TestCase, which pytest and unittest both run,
// with a method named as each of namesakes that must fail too.
func pythonCanary(token string, namesakes []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `import unittest


class %[1]s(unittest.TestCase):
    def test_Fails1(self):
        self.assertEqual(1, 2, %[2]q)

    def test_Fails2(self):
        self.assertTrue(False, %[2]q)

    def test_Fails3(self):
        assert 1 == 2, %[2]q

    def test_Passes(self):
        pass
`, token, canaryMessage)
	for _, n := range namesakes {
		fmt.Fprintf(&b, "\n    def %s(self):\n        self.assertEqual(1, 2, %q)\n", n, canaryMessage)
	}
	return b.String()
}

// nodeCanary runs in a process of its own, as every test file of node
// --test does: it imports the task's changed sources first, so that code
// that changes how tests are reported when it is loaded runs here too.
func (c *Set) nodeCanary(dir, token string) string {
	var imports []string
	for _, s := range c.sources {
		u := url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(s)))}
		imports = append(imports, strconv.Quote(u.String()))
	}
	return fmt.Sprintf(`'use strict';
const test = require('node:test');
const assert = require('node:assert');

const loaded = Promise.all([%[3]s].map((u) => import(u).catch(() => {})));

test('%[1]s Fails1', async () => { await loaded; assert.strictEqual(1, 2, %[2]q); });
test('%[1]s Fails2', async () => { await loaded; assert.ok(false, %[2]q); });
test('%[1]s Fails3', async () => { await loaded; throw new Error(%[2]q); });
test('%[1]s Passes', async () => { await loaded; });
`, token, canaryMessage, strings.Join(imports, ", "))
}
