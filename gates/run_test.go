package gates

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRunReportsEveryGate(t *testing.T) {
	out := t.TempDir()
	gs := []Gate{
		{Name: "test", Command: "echo testing {blast_radius}; for i in $(seq 1 30); do echo line $i; done"},
		{Name: "lint", Command: "echo lint broke >&2; exit 3"},
		{Name: "vet", Command: "echo vet {blast_radius}", DefaultRadius: "./..."},
	}
	var begun []string
	rs, err := Run(context.Background(), gs, RunOptions{Dir: t.TempDir(), OutDir: out, Task: "T002", BlastRadius: "./gates/...",
		Begin: func(g Gate) { begun = append(begun, g.Name) }})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(begun, " ") != "test lint vet" {
		t.Errorf("Begin called for %q, want each gate in order", begun)
	}
	if len(rs) != 3 {
		t.Fatalf("got %d results, want all 3 gates run despite the failure", len(rs))
	}
	test, lint, vet := rs[0], rs[1], rs[2]
	if !test.Passed || test.ExitCode != 0 || test.Command != "echo testing ./gates/...; for i in $(seq 1 30); do echo line $i; done" {
		t.Errorf("test = %+v", test)
	}
	if lint.Passed || lint.ExitCode != 3 || lint.Tail != "lint broke" {
		t.Errorf("lint = %+v", lint)
	}
	if !vet.Passed || vet.Tail != "vet ./gates/..." {
		t.Errorf("vet = %+v, want the task radius to win over the default", vet)
	}
	if want := filepath.Join(out, "T002-test.log"); test.OutputPath != want {
		t.Errorf("OutputPath = %q, want %q", test.OutputPath, want)
	}
	whole, err := os.ReadFile(test.OutputPath)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(string(whole), "\n"); lines != 31 || !strings.HasPrefix(string(whole), "testing ./gates/...\nline 1\n") {
		t.Errorf("output file has %d lines, want the whole output (31):\n%s", lines, whole)
	}
	if tail := strings.Split(test.Tail, "\n"); len(tail) != 20 || tail[19] != "line 30" {
		t.Errorf("Tail = %q, want the last 20 lines", test.Tail)
	}
	if f := Failed(rs); len(f) != 1 || f[0].Name != "lint" {
		t.Errorf("Failed = %+v", f)
	}
}

func TestRunTimeout(t *testing.T) {
	start := time.Now()
	rs, err := Run(context.Background(), []Gate{
		{Name: "slow", Command: "sleep 30", Timeout: 200 * time.Millisecond},
		{Name: "after", Command: "true"},
	}, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 3*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
	if len(rs) != 2 || rs[0].Passed || !rs[0].TimedOut || !rs[1].Passed {
		t.Errorf("results = %+v, want slow timed out and after passed", rs)
	}
	if rs[0].OutputPath != "" {
		t.Errorf("OutputPath = %q without OutDir", rs[0].OutputPath)
	}
}

func TestRunInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	rs, err := Run(ctx, []Gate{
		{Name: "first", Command: "true"},
		{Name: "slow", Command: "sleep 30"},
		{Name: "never", Command: "true"},
	}, RunOptions{})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "gate slow") {
		t.Errorf("err = %v, want context.Canceled naming gate slow", err)
	}
	if len(rs) != 2 || !rs[0].Passed || rs[1].Passed {
		t.Errorf("results = %+v, want first passed and slow interrupted, never not run", rs)
	}

	rs, err = Run(ctx, []Gate{{Name: "x", Command: "true"}}, RunOptions{})
	if !errors.Is(err, context.Canceled) || len(rs) != 0 {
		t.Errorf("already cancelled: %+v, %v", rs, err)
	}
}

func TestRunInfrastructureError(t *testing.T) {
	rs, err := Run(context.Background(), []Gate{{Name: "test", Command: "true"}},
		RunOptions{Dir: filepath.Join(t.TempDir(), "missing")})
	if err == nil || !strings.HasPrefix(err.Error(), "gate test: ") {
		t.Errorf("err = %v, want a start failure naming the gate", err)
	}
	if len(rs) != 1 || rs[0].Passed {
		t.Errorf("results = %+v, want one failed result", rs)
	}
}

func TestRunEnv(t *testing.T) {
	rs, err := Run(context.Background(), []Gate{{Name: "env", Command: `test "$GATE_MODE" = strict`}},
		RunOptions{Env: []string{"GATE_MODE=strict", "PATH=" + os.Getenv("PATH")}})
	if err != nil || !rs[0].Passed {
		t.Errorf("env not passed: %+v, %v", rs, err)
	}
}

// No gate sees a PLANX_* variable, from its options or inherited, nor
// through MinimalEnv even when `env:` names one.
func TestRunWithoutPlanxEnv(t *testing.T) {
	t.Setenv("PLANX_INHERITED", "1")
	g := []Gate{{Name: "env", Command: `test "$(env | grep -c ^PLANX_)" = 0`}}
	for _, env := range [][]string{
		nil,
		{"PLANX_RUN_ID=r", "PLANX_TASK_ID=T001", "PATH=" + os.Getenv("PATH")},
		MinimalEnv(append(os.Environ(), "PLANX_NAMED=1"), []string{"PLANX_NAMED", "PLANX_INHERITED"}),
	} {
		rs, err := Run(context.Background(), g, RunOptions{Env: env})
		if err != nil || !rs[0].Passed {
			t.Errorf("Env %v: a gate saw PLANX_ variables: %+v, %v", env, rs, err)
		}
	}
}

// Gates run with pipefail: `go test ./... | tee test.log` fails when the
// tests fail, not only when tee does.
func TestRunPipefail(t *testing.T) {
	rs, err := Run(context.Background(), []Gate{
		{Name: "piped", Command: "false | cat"},
		{Name: "ok", Command: "true | cat"},
	}, RunOptions{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if rs[0].Passed || rs[0].ExitCode != 1 {
		t.Errorf("false | cat = %+v, want a failure (pipefail)", rs[0])
	}
	if !rs[1].Passed {
		t.Errorf("true | cat = %+v", rs[1])
	}
}
