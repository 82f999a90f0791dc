package command

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
	"go.yaml.in/yaml/v3"
)

// actionStep is the run: script of action.yml's step id.
func actionStep(t *testing.T, id string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a struct {
		Runs struct {
			Steps []struct {
				ID  string `yaml:"id"`
				Run string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(src, &a); err != nil {
		t.Fatal(err)
	}
	for _, s := range a.Runs.Steps {
		if s.ID == id {
			return s.Run
		}
	}
	t.Fatalf("action.yml has no step %q", id)
	return ""
}

// The action's verify step, run as GitHub runs a composite step (bash -e
// -o pipefail) with the inputs in its environment: it passes the range,
// --base and the extra flags to planx verify as separate words (a range
// with a space stays one word: never split or spliced into the script),
// exits with verify's code and sets the exit-code output to it.
func TestActionVerifyStep(t *testing.T) {
	script := actionStep(t, "verify")
	home := t.TempDir()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "plan.md", "---\ntopic: a\n---\n- [ ] T001 Add a\n  ```sh run\n  echo a > a.txt\n  ```\n")
	gittest.Commit(t, dir, "plan")
	env := append(gittest.EnvironHome(home), "PATH="+filepath.Dir(planxBinary(t))+string(os.PathListSeparator)+os.Getenv("PATH"))
	run := func(vars ...string) (int, string, string) {
		out := filepath.Join(t.TempDir(), "output")
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
		cmd.Dir, cmd.Env = dir, append(append(env, "GITHUB_OUTPUT="+out), vars...)
		log, err := cmd.CombinedOutput()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(out)
		return code, string(b), string(log)
	}
	cmd := exec.Command("planx", "run", "plan.md")
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("planx run: %v\n%s", err, out)
	}
	if code, out, log := run("PLANX_RANGE=", "PLANX_BASE=", "PLANX_ARGS="); code != 0 || out != "exit-code=0\n" || !strings.Contains(log, "verify: ok") {
		t.Fatalf("verify of a sound run: exit %d, output %q\n%s", code, out, log)
	}
	if code, out, log := run("PLANX_RANGE=HEAD~2..HEAD", "PLANX_BASE=", "PLANX_ARGS=--strict --json"); code != 0 || out != "exit-code=0\n" || !strings.Contains(log, `"ok": true`) {
		t.Fatalf("a range and two flags: exit %d, output %q\n%s", code, out, log)
	}
	// The commit amended by hand: verify exits 3, and so do the step and its output.
	gittest.WriteFile(t, dir, "a.txt", "tampered\n")
	gittest.Git(t, dir, "commit", "-q", "-a", "--amend", "--no-edit")
	if code, out, log := run("PLANX_RANGE=", "PLANX_BASE=", "PLANX_ARGS="); code != 3 || out != "exit-code=3\n" || !strings.Contains(log, "error: unverified") {
		t.Fatalf("verify of a rewrite: exit %d, output %q\n%s", code, out, log)
	}
	// A range with a space is one argument: a usage error from verify, not a split.
	if code, out, log := run("PLANX_RANGE=HEAD~1..HEAD; touch injected", "PLANX_BASE=", "PLANX_ARGS="); code != 2 || out != "exit-code=2\n" {
		t.Fatalf("a range with a space: exit %d, output %q\n%s", code, out, log)
	}
	if _, err := os.Stat(filepath.Join(dir, "injected")); err == nil {
		t.Fatal("the range input ran as shell")
	}
}
