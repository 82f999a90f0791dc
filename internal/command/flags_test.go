package command

import (
	"context"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/planx-dev/planx/internal/review"
	"github.com/planx-dev/planx/internal/run/drive"
	"github.com/planx-dev/planx/internal/run/runplan"
	"github.com/planx-dev/planx/planparse"
)

// parse runs args through the real command tree and returns the options
// the command's run function would have been called with; nothing runs.
func parse(t *testing.T, args ...string) any {
	t.Helper()
	var got any
	var errOut strings.Builder
	stdio := &IO{In: strings.NewReader(""), Out: io.Discard, Err: &errOut}
	root := newRootWith(stdio, &globalOptions{parsed: func(o any) { got = o }})
	if err := root.Run(context.Background(), append([]string{"planx"}, args...)); err != nil {
		t.Fatalf("planx %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
	}
	if got == nil {
		t.Fatalf("planx %s: no run function called", strings.Join(args, " "))
	}
	return got
}

// Each flag lands in its option field (flags are bound with Destination:
// a misspelt field does not compile), -C works before and after the
// command, and defaults are what the run functions expect.
func TestFlagsBindToOptions(t *testing.T) {
	dir := t.TempDir() // -C must name a directory
	got := parse(t, "-C", dir, "run", "--format", "kiro", "--all", "--require-clean", "--allow-detached",
		"--no-verify", "-n", "--step-timeout", "5m", "--task-timeout", "1h", "--gate", "a=x", "--gate", "b=y",
		"--log-dir", "logs", "--agent", "claude", "--attempts", "3", "--strict-files", "--no-cache", "-y", "--require-approval",
		"--only", "T001,1.2", "--from", "T001", "--to", "T004", "--phase", "setup", "--ci", "--json", "plan.md")
	want := runOptions{
		exec: drive.Options{PlanPath: "plan.md", Dir: dir, All: true, RequireClean: true, AllowDetached: true,
			NoVerify: true, DryRun: true, StepTimeout: 5 * time.Minute, TaskTimeout: time.Hour,
			Gates: []string{"a=x", "b=y"}, LogDir: "logs", Agent: "claude", Attempts: 3, StrictFiles: true,
			NoCache: true, Yes: true, RequireApproval: true,
			Subset: runplan.Subset{Only: []string{"T001", "1.2"}, From: "T001", To: "T004", Phase: "setup"}},
		format: "kiro",
		out:    outputOptions{ci: true, json: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("run options:\n got %+v\nwant %+v", got, want)
	}

	// Unset, --attempts passes 0 on, so that .planx.yaml can set it; the
	// help shows the default the executor then applies.
	if got := parse(t, "run", "plan.md").(runOptions); got.exec.Attempts != 0 || got.exec.Dir != "" || got.exec.StepTimeout != 0 {
		t.Errorf("run defaults: %+v", got.exec)
	}

	if got, want := parse(t, "log", "-C", dir, "-n", "2", "--notes", "--all", "--json", "p.md"),
		(logOptions{Dir: dir, Plan: "p.md", JSON: true, MaxRuns: 2, Notes: true, All: true}); !reflect.DeepEqual(got, want) {
		t.Errorf("log options:\n got %+v\nwant %+v", got, want)
	}
	if got, want := parse(t, "verify", "--rerun-gates", "--rev", "v1", "--plan", "p.md", "--json"),
		(verifyOptions{Rev: "v1", Plan: "p.md", Rerun: rerunMode{review.RerunUnverified}, JSON: true}); !reflect.DeepEqual(got, want) {
		t.Errorf("verify options:\n got %+v\nwant %+v", got, want)
	}
	if got, want := parse(t, "verify", "--rerun-gates=tip", "--no-cache", "--strict", "--base", "origin/main", "--trust-branch-config", "A..B"),
		(verifyOptions{Range: "A..B", Rerun: rerunMode{review.RerunTip}, NoCache: true, Strict: true, Base: "origin/main", TrustBranchConfig: true}); !reflect.DeepEqual(got, want) {
		t.Errorf("verify options:\n got %+v\nwant %+v", got, want)
	}
	if got := parse(t, "verify").(verifyOptions); got.Rerun.mode != "" {
		t.Errorf("verify without --rerun-gates: %+v", got)
	}
	if got, want := parse(t, "-C", dir, "show", "--json", "T003"), (showOptions{Dir: dir, What: "T003", JSON: true}); !reflect.DeepEqual(got, want) {
		t.Errorf("show options:\n got %+v\nwant %+v", got, want)
	}
	if got, want := parse(t, "validate", "-C", dir, "--format", "speckit", "tasks.md"),
		(validateOptions{Path: filepath.Join(dir, "tasks.md"), Format: planparse.FormatSpecKit}); !reflect.DeepEqual(got, want) {
		t.Errorf("validate options:\n got %+v\nwant %+v", got, want)
	}
	if got, want := parse(t, "approve", "--yes", "--check", "--ci", "p.md"),
		(approveOptions{Path: "p.md", Yes: true, Check: true, out: outputOptions{ci: true}}); !reflect.DeepEqual(got, want) {
		t.Errorf("approve options:\n got %+v\nwant %+v", got, want)
	}
	if got := parse(t, "-C", dir, "resume", "--retry", "--accept-drift", "--no-cache").(drive.ResumeOptions); got.Dir != dir || !got.Retry || !got.AcceptDrift || !got.NoCache {
		t.Errorf("resume options: %+v", got)
	}
	if got := parse(t, "skip").(drive.ResumeOptions); got.Retry || got.AcceptDrift || got.Dir != "" {
		t.Errorf("skip options: %+v", got)
	}
	if got, want := parse(t, "unlock", "--force"), (unlockOptions{force: true}); !reflect.DeepEqual(got, want) {
		t.Errorf("unlock options: %+v", got)
	}
	if got, want := parse(t, "hook", "install", "--rerun-gates", "-C", dir), (hookOptions{Dir: dir, RerunGates: true}); !reflect.DeepEqual(got, want) {
		t.Errorf("hook install options: %+v", got)
	}
}
