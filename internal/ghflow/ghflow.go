// Package ghflow writes the GitHub Actions workflow that fans a plan's
// parallel waves out over runners (planx ci github): a start job, then per
// wave a matrix job with one entry per task and a landing job that needs
// it, the next wave needing the landing before it. It is given the waves as
// plain task IDs (the run's own computation, admit.Waves) and knows no
// plan, repository or run: text in, YAML out.
package ghflow

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Spec is what a workflow is written from.
type Spec struct {
	Plan  string     // the plan's path, repository-relative, with slashes
	Waves [][]string // the task IDs of each wave, in plan order
	// MaxParallel bounds the task jobs of a wave that run at once (0: as
	// many as GitHub gives).
	MaxParallel int
	RunsOn      string // the runners' label; "" is ubuntu-latest
	// Install is the shell command that puts planx on PATH in each job
	// (after actions/setup-go).
	Install string
}

// DefaultInstall installs planx from the module proxy.
const DefaultInstall = "go install github.com/planx-dev/planx/cmd/planx@latest"

// ErrSpec is a Spec a workflow cannot be written from.
var ErrSpec = errors.New("ghflow")

// JobID names the jobs: "start", "wave_<n>" and "land_<n>" (n from 1).
func JobID(kind string, n int) string {
	if kind == "start" {
		return kind
	}
	return fmt.Sprintf("%s_%d", kind, n)
}

// Write writes the workflow of s.
func Write(w io.Writer, s Spec) error {
	if err := s.check(); err != nil {
		return err
	}
	var b strings.Builder
	s.header(&b)
	s.start(&b)
	// A wave of one task runs alone in the work tree, as with --jobs: in
	// the job before it (start, or the landing before), not a job of its
	// own. The waves keep the run's numbers.
	prev := JobID("start", 0)
	for i, ids := range s.Waves {
		if len(ids) < 2 {
			continue
		}
		s.wave(&b, i+1, ids, prev)
		s.land(&b, i+1, prev)
		prev = JobID("land", i+1)
	}
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("ghflow: %w", err)
	}
	return nil
}

// check refuses what cannot be written safely: GitHub evaluates ${{ in
// any string of a workflow, quoted or not, so a plan path or task ID that
// holds one would be an expression.
func (s Spec) check() error {
	if s.Plan == "" || len(s.Waves) == 0 {
		return fmt.Errorf("%w: no plan or no wave to write", ErrSpec)
	}
	all := []string{s.Plan, s.RunsOn, s.Install}
	for _, w := range s.Waves {
		if len(w) == 0 {
			return fmt.Errorf("%w: an empty wave", ErrSpec)
		}
		all = append(all, w...)
	}
	for _, v := range all {
		if strings.Contains(v, "${{") || strings.ContainsAny(v, "\n\r") {
			return fmt.Errorf("%w: %q would be read as a GitHub expression or break a line", ErrSpec, v)
		}
	}
	return nil
}

// q is v as a YAML double-quoted scalar (JSON's string syntax is YAML's).
func q(v string) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func (s Spec) runsOn() string {
	if s.RunsOn == "" {
		return "ubuntu-latest"
	}
	return s.RunsOn
}

func (s Spec) install() string {
	if s.Install == "" {
		return DefaultInstall
	}
	return s.Install
}

func (s Spec) header(b *strings.Builder) {
	n := 0
	for _, w := range s.Waves {
		n += len(w)
	}
	fmt.Fprintf(b, `# Written by planx ci github %s: %d task(s) in %d wave(s), as planx run --jobs cuts them.
# Each wave of several tasks is a matrix job, one runner per task, whose result is pushed
# under refs/planx/runs/<run>/; the wave's landing job fetches those results, checks them
# and lands them on the branch in plan order; a task that runs alone runs in the job before
# it (start or a landing), in the work tree; the next wave starts from that landing.
# Write it again when the plan changes (planx ci github). See docs/ci.md.
name: %s
on:
  workflow_dispatch:
permissions:
  contents: write # the task jobs push refs/planx/runs/..., the landing jobs the branch
concurrency:
  group: planx-${{ github.ref }}
  cancel-in-progress: false
env:
  PLANX_PLAN: %s
  # one run id for the whole workflow run, its re-runs of failed jobs included
  PLANX_CI_RUN: gh-${{ github.run_id }}
  CI: "true"
jobs:
`, s.Plan, n, len(s.Waves), q("planx: "+s.Plan), q(s.Plan))
}

// setup is the steps every job starts with: the whole history checked
// out (a run reads its rollback commit and its task commits), Go, planx
// and a committer identity.
func (s Spec) setup(b *strings.Builder) {
	fmt.Fprintf(b, `    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - uses: actions/setup-go@v5
        with:
          go-version: stable
      - name: Install planx
        run: |
          %s
      - name: Committer
        run: git config user.name "planx bot" && git config user.email "planx@users.noreply.github.com"
`, s.install())
}

func (s Spec) start(b *strings.Builder) {
	fmt.Fprintf(b, "  %s:\n    runs-on: %s\n", JobID("start", 0), q(s.runsOn()))
	s.setup(b)
	b.WriteString(`      - name: Start the run (its rollback commit and records, pushed under refs/planx/runs/)
        run: planx ci start --run "$PLANX_CI_RUN" "$PLANX_PLAN"
`)
}

func (s Spec) wave(b *strings.Builder, n int, ids []string, prev string) {
	tasks := make([]string, len(ids))
	for i, id := range ids {
		tasks[i] = q(id)
	}
	fmt.Fprintf(b, "  %s:\n    name: wave %d (${{ matrix.task }})\n    needs: [%s]\n    runs-on: %s\n", JobID("wave", n), n, prev, q(s.runsOn()))
	b.WriteString("    strategy:\n      fail-fast: false\n")
	if s.MaxParallel > 0 {
		fmt.Fprintf(b, "      max-parallel: %d\n", s.MaxParallel)
	}
	fmt.Fprintf(b, "      matrix:\n        task: [%s]\n", strings.Join(tasks, ", "))
	s.setup(b)
	fmt.Fprintf(b, `      - name: Run the task in its slot and push its result
        env:
          TASK: ${{ matrix.task }}
        run: planx ci task --run "$PLANX_CI_RUN" --task "$TASK"
`)
}

// land is the landing job of wave n: it runs when the wave's task jobs
// ended, failed ones included (the others land, as a local wave lands
// them, and the run stops at the failed one), but only when prev, the job
// before the wave, succeeded. It then runs the waves of one task after it
// and hands the next parallel wave off, or ends the run.
func (s Spec) land(b *strings.Builder, n int, prev string) {
	fmt.Fprintf(b, "  %s:\n    needs: [%s, %s]\n    if: ${{ !cancelled() && needs.%s.result == 'success' }}\n    runs-on: %s\n",
		JobID("land", n), prev, JobID("wave", n), prev, q(s.runsOn()))
	s.setup(b)
	fmt.Fprintf(b, `      - name: Land wave %d in plan order and push the branch
        run: planx ci land --run "$PLANX_CI_RUN" --wave %d
`, n, n)
}
