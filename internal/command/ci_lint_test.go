package command

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/ghlint"
	"github.com/planx-dev/planx/internal/gittest"
	"go.yaml.in/yaml/v3"
)

// TestActionLints runs actionlint on action.yml: its composite steps as a
// workflow job, and its metadata as a workflow that uses it reads it.
func TestActionLints(t *testing.T) {
	found, err := ghlint.Action(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Error(f)
	}
}

// TestDocWorkflowsLint holds every ```yaml block of README.md and docs/*.md
// to being YAML, and those that are GitHub Actions workflows (top-level
// on: and jobs:) to actionlint, with this repository's action (`uses:
// planx-dev/planx@<ref>`) checked as the local action.yml: no workflow in
// the docs that CI has not parsed.
func TestDocWorkflowsLint(t *testing.T) {
	root := filepath.Join("..", "..")
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, filepath.Join(root, "README.md"))
	workflows := 0
	for _, doc := range docs {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range yamlBlocks(string(text)) {
			name := filepath.Base(doc) + ":" + b.line
			var top map[string]any
			if err := yaml.Unmarshal([]byte(b.text), &top); err != nil {
				t.Errorf("%s: not YAML: %v", name, err)
				continue
			}
			if _, ok := top["jobs"]; !ok || top["on"] == nil {
				continue
			}
			workflows++
			src := thisAction.ReplaceAllString(b.text, "uses: ./")
			found, err := ghlint.Workflow(name, []byte(src), root)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range found {
				t.Error(f)
			}
		}
	}
	if workflows < 3 {
		t.Errorf("%d GitHub workflows found in the docs, want docs/ci.md's (verify, a plan in one job, the fan-out)", workflows)
	}
}

// thisAction is a step that uses this repository's action at some ref.
var thisAction = regexp.MustCompile(`uses: planx-dev/planx@\S+`)

type yamlBlock struct{ line, text string }

// yamlBlocks are the ```yaml fenced blocks of a markdown text, each with
// the line its fence opens on.
func yamlBlocks(md string) []yamlBlock {
	var out []yamlBlock
	lines := strings.Split(md, "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```yaml" {
			continue
		}
		indent := lines[i][:strings.Index(lines[i], "`")]
		start := i + 1
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
		}
		body := make([]string, 0, i-start)
		for _, l := range lines[start:min(i, len(lines))] {
			body = append(body, strings.TrimPrefix(l, indent))
		}
		out = append(out, yamlBlock{line: strconv.Itoa(start), text: strings.Join(body, "\n") + "\n"})
	}
	return out
}

// TestCIGitHubLints runs actionlint on what `planx ci github` writes for a
// 12-task plan of 3 waves, printed and written, with --jobs and a runner
// label: every workflow planx writes passes it.
func TestCIGitHubLints(t *testing.T) {
	gittest.Setenv(t)
	dir := gittest.Init(t)
	plan, err := os.ReadFile(filepath.Join("testdata", "ci", "fan12.md"))
	if err != nil {
		t.Fatal(err)
	}
	gittest.WriteFile(t, dir, "memory-bank/plan/fan.md", string(plan))
	gittest.Commit(t, dir, "plan")
	for _, args := range [][]string{
		{"--print"},
		{"--print", "--jobs", "2", "--runs-on", "self-hosted"},
		{"--output", "wf.yml"},
	} {
		code, out, errOut := runMain(t, append(append([]string{"-C", dir, "ci", "github"}, args...), "memory-bank/plan/fan.md")...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s%s", args, code, out, errOut)
		}
		src := []byte(out)
		if args[0] == "--output" {
			if src, err = os.ReadFile(filepath.Join(dir, "wf.yml")); err != nil {
				t.Fatal(err)
			}
		}
		if !strings.Contains(string(src), `task: ["T009", "T010", "T011", "T012"]`) {
			t.Fatalf("%v: no third wave of four tasks:\n%s", args, src)
		}
		found, err := ghlint.Workflow("planx ci github "+strings.Join(args, " "), src, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range found {
			t.Error(f)
		}
	}
}
