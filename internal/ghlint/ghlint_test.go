package ghlint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goodAction = `name: t
description: d
inputs:
  range:
    description: r
    default: ""
runs:
  using: composite
  steps:
    - shell: bash
      env:
        R: ${{ inputs.range }}
      run: echo "$R"
`

func writeAction(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "action.yml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// The checks find what they are for: a composite step's undefined input
// and missing shell, a workflow's unknown input of the local action, an
// unknown `needs:` and a bad expression; and pass what is right.
func TestFindsWhatIsWrong(t *testing.T) {
	cases := []struct {
		name, action, workflow, want string
	}{
		{"good", goodAction, "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./\n        with: {range: x..y}\n", ""},
		{"undefined input", strings.Replace(goodAction, "inputs.range", "inputs.rnage", 1), "", "property \"rnage\" is not defined"},
		{"no shell", strings.Replace(goodAction, "    - shell: bash\n      env:", "    - env:", 1), "", "needs shell:"},
		{"unknown action input", goodAction, "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./\n        with: {rnage: x}\n", "input \"rnage\" is not defined"},
		{"unknown needs", goodAction, "on: push\njobs:\n  a:\n    needs: [b]\n    runs-on: ubuntu-latest\n    steps:\n      - run: true\n", "needs"},
		{"bad expression", goodAction, "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ matrix.task }}\n", "property \"task\" is not defined"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := writeAction(t, c.action)
			found, err := Action(root)
			if err != nil {
				t.Fatal(err)
			}
			if c.workflow != "" {
				more, err := Workflow("w.yml", []byte(c.workflow), root)
				if err != nil {
					t.Fatal(err)
				}
				found = append(found, more...)
			}
			all := strings.Join(found, "\n")
			switch {
			case c.want == "" && len(found) > 0:
				t.Errorf("want no finding, got:\n%s", all)
			case c.want != "" && !strings.Contains(all, c.want):
				t.Errorf("want a finding with %q, got:\n%s", c.want, all)
			}
		})
	}
}
