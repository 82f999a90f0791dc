// Package ghlint checks GitHub Actions YAML with actionlint
// (github.com/rhysd/actionlint, pinned in go.mod) from Go tests: the
// repository's action.yml, the workflows the docs show and the workflows
// `planx ci github` writes. It is a library call, not the actionlint
// binary, so `go test ./...` runs it wherever the tests run, with no tool
// to install. shellcheck and pyflakes, which actionlint runs on `run:`
// scripts when they are installed, are left out: their presence would make
// the same YAML pass on one machine and fail on another.
package ghlint

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/rhysd/actionlint"
	"go.yaml.in/yaml/v3"
)

// Workflow lints the workflow src, named name in its messages, as a
// workflow of the repository at root: a `uses: ./` step is checked against
// root's action.yml (its inputs), as actionlint checks a local action. It
// returns actionlint's findings, one line each ("name:line:col: message
// [rule]"), none when the workflow passes.
func Workflow(name string, src []byte, root string) ([]string, error) {
	l, err := actionlint.NewLinter(io.Discard, &actionlint.LinterOptions{Color: actionlint.ColorOptionKindNever})
	if err != nil {
		return nil, fmt.Errorf("ghlint: %w", err)
	}
	var proj *actionlint.Project
	if root != "" {
		if proj, err = actionlint.NewProject(root); err != nil {
			return nil, fmt.Errorf("ghlint: the project at %s: %w", root, err)
		}
	}
	errs, err := l.Lint(name, src, proj)
	if err != nil {
		return nil, fmt.Errorf("ghlint: %s: %w", name, err)
	}
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out, nil
}

// Action lints the composite action at root/action.yml. actionlint reads
// an action's metadata only where a workflow uses it (its inputs and
// outputs); the composite steps themselves it checks here as the steps of a
// job of a reusable workflow whose inputs are the action's, so that their
// expressions (${{ inputs.x }}, ${{ github.action_path }}), shells and
// step ids are held to the same rules as a workflow's.
func Action(root string) ([]string, error) {
	src, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		return nil, fmt.Errorf("ghlint: %w", err)
	}
	wf, err := actionAsWorkflow(src)
	if err != nil {
		return nil, err
	}
	found, err := Workflow("action.yml (its steps as a workflow job)", wf, root)
	if err != nil {
		return nil, err
	}
	found = append(found, compositeShells(src)...)
	// And the metadata as a workflow that uses the action reads it.
	use := []byte("on: push\njobs:\n  use:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./\n")
	more, err := Workflow("action.yml (used by a workflow)", use, root)
	return append(found, more...), err
}

// compositeShells finds the `run:` steps of a composite action without a
// `shell:`, which GitHub requires there (a workflow's job defaults it, so
// the job actionlint checks does not tell).
func compositeShells(src []byte) []string {
	var a action
	if yaml.Unmarshal(src, &a) != nil {
		return nil // actionAsWorkflow said so
	}
	var out []string
	for i, s := range a.Runs.Steps {
		m, _ := s.(map[string]any)
		if _, run := m["run"]; run && m["shell"] == nil {
			out = append(out, fmt.Sprintf("action.yml: step %d of runs.steps: a composite action's run step needs shell:", i+1))
		}
	}
	return out
}

// action is the part of action.yml turned into a workflow.
type action struct {
	Name   string                    `yaml:"name"`
	Inputs map[string]map[string]any `yaml:"inputs"`
	Runs   struct {
		Using string `yaml:"using"`
		Steps []any  `yaml:"steps"`
	} `yaml:"runs"`
}

// actionAsWorkflow is a reusable workflow (on: workflow_call) with the
// action's inputs, all strings, and one job of its steps.
func actionAsWorkflow(src []byte) ([]byte, error) {
	var a action
	if err := yaml.Unmarshal(src, &a); err != nil {
		return nil, fmt.Errorf("ghlint: action.yml: %w", err)
	}
	if a.Runs.Using != "composite" {
		return nil, fmt.Errorf("ghlint: action.yml: runs.using is %q, want composite", a.Runs.Using)
	}
	inputs := map[string]any{}
	for name, in := range a.Inputs {
		def := in
		def["type"] = "string"
		delete(def, "deprecationMessage")
		inputs[name] = def
	}
	wf := map[string]any{
		"name": a.Name,
		"on":   map[string]any{"workflow_call": map[string]any{"inputs": inputs}},
		"jobs": map[string]any{"action": map[string]any{"runs-on": "ubuntu-latest", "steps": a.Runs.Steps}},
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	if err := enc.Encode(wf); err != nil {
		return nil, fmt.Errorf("ghlint: action.yml as a workflow: %w", err)
	}
	return b.Bytes(), enc.Close()
}
