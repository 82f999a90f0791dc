package ghflow

import (
	"slices"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/ghlint"
	"go.yaml.in/yaml/v3"
)

type job struct {
	Name     string   `yaml:"name"`
	Needs    []string `yaml:"needs"`
	If       string   `yaml:"if"`
	Strategy struct {
		FailFast    *bool `yaml:"fail-fast"`
		MaxParallel int   `yaml:"max-parallel"`
		Matrix      struct {
			Task []string `yaml:"task"`
		} `yaml:"matrix"`
	} `yaml:"strategy"`
	Steps []struct {
		Uses string            `yaml:"uses"`
		Run  string            `yaml:"run"`
		Env  map[string]string `yaml:"env"`
	} `yaml:"steps"`
}

type workflow struct {
	Env  map[string]string `yaml:"env"`
	Jobs map[string]job    `yaml:"jobs"`
}

func write(t *testing.T, s Spec) (string, workflow) {
	t.Helper()
	var b strings.Builder
	if err := Write(&b, s); err != nil {
		t.Fatal(err)
	}
	var wf workflow
	if err := yaml.Unmarshal([]byte(b.String()), &wf); err != nil {
		t.Fatalf("not YAML: %v\n%s", err, b.String())
	}
	return b.String(), wf
}

// Three waves: start, then per wave a matrix job of its tasks and a landing
// job; each wave needs the landing before it, each landing its wave and the
// landing before it, and runs when the wave's jobs failed but not when that
// landing did. actionlint passes it.
func TestWavesAsMatrixJobs(t *testing.T) {
	s := Spec{Plan: "memory-bank/plan/x.md", MaxParallel: 4,
		Waves: [][]string{{"T001", "T002"}, {"T003", "T004", "T005"}, {"T006", "T007"}}}
	src, wf := write(t, s)
	if found, err := ghlint.Workflow("planx.yml", []byte(src), ""); err != nil || len(found) > 0 {
		t.Fatalf("actionlint: %v %v\n%s", err, found, src)
	}
	var ids []string
	for id := range wf.Jobs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	if want := []string{"land_1", "land_2", "land_3", "start", "wave_1", "wave_2", "wave_3"}; !slices.Equal(ids, want) {
		t.Fatalf("jobs %v, want %v", ids, want)
	}
	if wf.Env["PLANX_PLAN"] != s.Plan {
		t.Errorf("PLANX_PLAN = %q", wf.Env["PLANX_PLAN"])
	}
	for n, tasks := range s.Waves {
		w, l := wf.Jobs[JobID("wave", n+1)], wf.Jobs[JobID("land", n+1)]
		prev := "start"
		if n > 0 {
			prev = JobID("land", n)
		}
		if !slices.Equal(w.Strategy.Matrix.Task, tasks) || w.Strategy.MaxParallel != 4 || w.Strategy.FailFast == nil || *w.Strategy.FailFast {
			t.Errorf("wave %d: matrix %v, max-parallel %d, fail-fast %v", n+1, w.Strategy.Matrix.Task, w.Strategy.MaxParallel, w.Strategy.FailFast)
		}
		if !slices.Equal(w.Needs, []string{prev}) || !slices.Equal(l.Needs, []string{prev, JobID("wave", n+1)}) {
			t.Errorf("wave %d needs %v, its landing %v", n+1, w.Needs, l.Needs)
		}
		if !strings.Contains(l.If, "!cancelled()") || !strings.Contains(l.If, "needs."+prev+".result == 'success'") {
			t.Errorf("landing %d if: %q", n+1, l.If)
		}
		last := w.Steps[len(w.Steps)-1]
		if last.Env["TASK"] != "${{ matrix.task }}" || !strings.Contains(last.Run, `planx ci task --run "$PLANX_CI_RUN" --task "$TASK"`) {
			t.Errorf("wave %d's task step: %+v", n+1, last)
		}
		if got := l.Steps[len(l.Steps)-1].Run; !strings.Contains(got, "planx ci land") || !strings.Contains(got, "--wave "+string(rune('1'+n))) {
			t.Errorf("landing %d's step: %q", n+1, got)
		}
	}
}

// The install command and the runner label are the spec's; a command that
// YAML would misread (a colon, a #) stays one shell line.
func TestInstallAndRunner(t *testing.T) {
	s := Spec{Plan: "p.md", Waves: [][]string{{"T001", "T002"}}, RunsOn: "self-hosted",
		Install: "cd /opt/planx && go install ./cmd/planx # pinned: v1"}
	src, wf := write(t, s)
	if found, err := ghlint.Workflow("planx.yml", []byte(src), ""); err != nil || len(found) > 0 {
		t.Fatalf("actionlint: %v %v\n%s", err, found, src)
	}
	for id, j := range wf.Jobs {
		if j.Steps[2].Run != s.Install+"\n" {
			t.Errorf("%s installs with %q", id, j.Steps[2].Run)
		}
	}
	if !strings.Contains(src, `runs-on: "self-hosted"`) {
		t.Errorf("runner label not used:\n%s", src)
	}
}

// A wave of one task is no job: it runs in the job before it (start or a
// landing), as --jobs runs it alone in the work tree; the parallel waves
// keep the run's numbers, and chain through the landings.
func TestWavesOfOneRunInline(t *testing.T) {
	s := Spec{Plan: "p.md", Waves: [][]string{{"T001"}, {"T002", "T003"}, {"T004"}, {"T005", "T006"}, {"T007"}}}
	src, wf := write(t, s)
	if found, err := ghlint.Workflow("planx.yml", []byte(src), ""); err != nil || len(found) > 0 {
		t.Fatalf("actionlint: %v %v\n%s", err, found, src)
	}
	if len(wf.Jobs) != 5 {
		t.Fatalf("%d jobs, want start, wave_2, land_2, wave_4, land_4:\n%s", len(wf.Jobs), src)
	}
	if got := wf.Jobs["wave_4"].Needs; !slices.Equal(got, []string{"land_2"}) {
		t.Errorf("wave_4 needs %v", got)
	}
	if got := wf.Jobs["land_4"].Needs; !slices.Equal(got, []string{"land_2", "wave_4"}) {
		t.Errorf("land_4 needs %v", got)
	}
	if got := wf.Jobs["wave_2"].Strategy.Matrix.Task; !slices.Equal(got, []string{"T002", "T003"}) {
		t.Errorf("wave_2's matrix %v", got)
	}
}

// GitHub evaluates ${{ anywhere in a workflow: a plan path or task ID that
// holds one is refused, as is an empty wave.
func TestRefusesExpressions(t *testing.T) {
	for _, s := range []Spec{
		{Plan: "${{ secrets.X }}.md", Waves: [][]string{{"T001"}}},
		{Plan: "p.md", Waves: [][]string{{"T001", "${{ github.token }}"}}},
		{Plan: "p.md", Waves: [][]string{{}}},
		{Plan: "p.md"},
	} {
		if err := Write(&strings.Builder{}, s); err == nil {
			t.Errorf("%+v: written", s)
		}
	}
}
