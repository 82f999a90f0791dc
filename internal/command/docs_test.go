package command

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"
)

var updateDocs = flag.Bool("update", false, "rewrite docs/cli.md and docs/planx.1 from the command tree")

// TestDocsCurrent fails when docs/cli.md or the man page docs/planx.1 no
// longer match the command tree: help text, flags, examples and exit codes
// are written once, in the commands, and both references are generated
// from `planx ... --help`. Regenerate with:
//
//	go test ./internal/command -run TestDocsCurrent -update
func TestDocsCurrent(t *testing.T) {
	md, err := referenceMarkdown()
	if err != nil {
		t.Fatal(err)
	}
	man := manPage(newRoot(&IO{In: strings.NewReader("")}))
	for name, got := range map[string]string{"cli.md": md, "planx.1": man} {
		path := filepath.Join("..", "..", "docs", name)
		if *updateDocs {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(want) != got {
			t.Errorf("docs/%s is stale: regenerate it with go test ./internal/command -run TestDocsCurrent -update", name)
		}
	}
	if !strings.Contains(md, "planx run --dry-run memory-bank/plan/x.md") || !strings.Contains(man, "not found") {
		t.Errorf("the references lack the examples or exit codes:\n%s", md)
	}
}

// referenceMarkdown is each visible command's --help, in tree order.
func referenceMarkdown() (string, error) {
	var b strings.Builder
	b.WriteString("# planx command-line reference\n\n" +
		"<!-- Generated from the command tree by TestDocsCurrent in internal/command; do not edit.\n" +
		"     Regenerate: go test ./internal/command -run TestDocsCurrent -update -->\n\n" +
		"Every command also prints this with `--help`. `planx -C DIR` runs any command as if started in\n" +
		"DIR, like `git -C`. The exit codes are listed under `planx`.\n")
	var walk func(path []string, c *cli.Command) error
	walk = func(path []string, c *cli.Command) error {
		help, err := helpText(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "\n## %s\n\n```text\n%s\n```\n", strings.Join(path, " "), strings.TrimRight(help, "\n"))
		for _, sub := range c.Commands {
			if sub.Hidden || sub.Name == "help" {
				continue
			}
			if err := walk(append(append([]string(nil), path...), sub.Name), sub); err != nil {
				return err
			}
		}
		return nil
	}
	err := walk([]string{"planx"}, newRoot(&IO{In: strings.NewReader("")}))
	return b.String(), err
}

// helpText runs `path... --help` on a fresh command tree.
func helpText(path []string) (string, error) {
	var out, errOut bytes.Buffer
	root := newRoot(&IO{In: strings.NewReader(""), Out: &out, Err: &errOut})
	if err := root.Run(context.Background(), append(append([]string(nil), path...), "--help")); err != nil {
		return "", fmt.Errorf("%s --help: %w: %s", strings.Join(path, " "), err, errOut.String())
	}
	return out.String(), nil
}

// Every command explains itself like gh's: a paragraph on what it does and
// when to use it, then two to four examples.
func TestEveryCommandHasDescriptionAndExamples(t *testing.T) {
	for _, c := range newRoot(&IO{In: strings.NewReader("")}).Commands {
		if c.Hidden || c.Name == "help" || c.Name == "completion" {
			continue
		}
		para, examples, ok := strings.Cut(c.Description, "\n\nExamples:\n")
		if !ok || len(strings.Fields(para)) < 25 {
			t.Errorf("planx %s: no description paragraph (25 words or more) followed by examples", c.Name)
			continue
		}
		if n := strings.Count(examples, "  $ planx "); n < 2 || n > 4 {
			t.Errorf("planx %s: %d examples, want 2 to 4", c.Name, n)
		}
	}
}
