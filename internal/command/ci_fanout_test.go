package command

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// fanout is a bare origin holding the 12-task, 3-wave plan on main, the
// workflow planx ci github writes for it, and the environment its jobs
// run in (hermetic git, this test binary as planx on PATH).
type fanout struct {
	origin, workflow string
	env              []string
}

func newFanout(t *testing.T) fanout {
	t.Helper()
	home := t.TempDir()
	env := append(gittest.EnvironHome(home), "PATH="+filepath.Dir(planxBinary(t))+string(os.PathListSeparator)+os.Getenv("PATH"))
	seed, origin := filepath.Join(t.TempDir(), "seed"), filepath.Join(t.TempDir(), "origin.git")
	plan, err := os.ReadFile(filepath.Join("testdata", "ci", "fan12.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(seed, "memory-bank", "plan"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(seed, "memory-bank", "plan", "fan.md"), plan, 0o644); err != nil {
		t.Fatal(err)
	}
	f := fanout{origin: origin, env: env}
	f.sh(t, "", "git", "config", "--global", "user.name", "planx bot")
	f.sh(t, "", "git", "config", "--global", "user.email", "planx@users.noreply.github.com")
	f.sh(t, "", "git", "init", "-q", "--bare", "-b", "main", origin)
	f.sh(t, seed, "git", "init", "-q", "-b", "main")
	f.sh(t, seed, "git", "add", "-A")
	f.sh(t, seed, "git", "commit", "-q", "-m", "plan")
	f.sh(t, seed, "git", "push", "-q", origin, "HEAD:main")
	f.workflow = f.sh(t, seed, "planx", "ci", "github", "--print", "--jobs", "4", "memory-bank/plan/fan.md")
	return f
}

// sh runs a command in dir with the jobs' environment and returns its
// output; it fails the test when the command fails.
func (f fanout) sh(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, f.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}

// clone is a new clone of origin's main.
func (f fanout) clone(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "clone")
	f.sh(t, "", "git", "clone", "-q", "-b", "main", f.origin, dir)
	return dir
}

// local is main after a local `planx run --jobs 4` of the plan, in a clone
// of origin as it was before the workflow ran.
func (f fanout) local(t *testing.T) string {
	t.Helper()
	dir := f.clone(t)
	f.sh(t, dir, "planx", "run", "--jobs", "4", "memory-bank/plan/fan.md")
	return dir
}

var (
	msDuration = regexp.MustCompile(`\b\d+ms\b`)
	fullSHA    = regexp.MustCompile(`\b[0-9a-f]{40}\b`)
)

// history is what a run leaves that must not depend on where it ran: each
// commit since the plan's (its subject, its tree less the execution log,
// whose lines hold timings, and its Planx- trailers less durations, shas
// and the run's id and log name), newest first.
func (f fanout) history(t *testing.T, dir string) string {
	t.Helper()
	n, err := strconv.Atoi(strings.TrimSpace(f.sh(t, dir, "git", "rev-list", "--count", "HEAD")))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := range n - 1 {
		rev := "HEAD~" + strconv.Itoa(i)
		b.WriteString(f.sh(t, dir, "git", "log", "-1", "--format=%s", rev))
		for _, l := range strings.Split(f.sh(t, dir, "git", "ls-tree", "-r", rev), "\n") {
			if l != "" && !strings.Contains(l, "memory-bank/execute/") {
				b.WriteString("  " + l + "\n")
			}
		}
		for _, l := range strings.Split(f.sh(t, dir, "git", "log", "-1", "--format=%(trailers:only,unfold)", rev), "\n") {
			if strings.HasPrefix(l, "Planx-") && !strings.HasPrefix(l, "Planx-Run:") && !strings.HasPrefix(l, "Planx-Log:") {
				b.WriteString("  " + fullSHA.ReplaceAllString(msDuration.ReplaceAllString(l, "_ms"), "<sha>") + "\n")
			}
		}
	}
	return b.String()
}

// The workflow played job by job, each in its own clone, lands the plan
// as a local --jobs 4 run does: the same commits in the same order, the
// same trees, the same trailers (the waves' numbers, the gates, the
// integration gates); and planx verify passes on what it pushed.
func TestCIWorkflowPlayed(t *testing.T) {
	f := newFanout(t)
	want := f.history(t, f.local(t))
	p := newPlayer(t, []byte(f.workflow), f.origin, f.env)
	p.play(false)
	for _, id := range p.order() {
		if r := p.result(id); r != "success" {
			t.Fatalf("job %s: %s", id, r)
		}
	}
	final := f.clone(t)
	if got := f.history(t, final); got != want {
		t.Fatalf("the workflow's history differs from a local --jobs 4 run's:\n--- workflow\n%s\n--- local\n%s", got, want)
	}
	if !strings.Contains(want, "Planx-Wave: 3 <sha>") || strings.Count(want, "Planx-Gate: check=pass _ms") != 12 {
		t.Fatalf("the local run is not the 3 waves of 12 gated tasks this test is about:\n%s", want)
	}
	f.sh(t, final, "git", "fetch", "-q", "origin", "refs/notes/planx:refs/notes/planx")
	if out := f.sh(t, final, "planx", "verify", "--rev", "HEAD"); !strings.Contains(out, "verify: ok") {
		t.Fatalf("verify:\n%s", out)
	}
}

// A task job killed half-way (SIGKILL once its task is done in its slot,
// before it publishes anything: a slot's own fault points are off)
// publishes nothing: the landing lands the wave's other tasks
// and stops the run at it (the job fails, exit 3), the waves after it do
// not run. "Re-run failed jobs" then re-runs that task job (the run
// stopped at the task: it leaves it to the landing) and the landing, which
// resumes the run as planx resume does: the task runs again, on the
// landing's runner, and the run goes on through the later waves. Every
// task is committed once, the tree is a local run's, and verify passes.
func TestCIWorkflowKilledTaskResumed(t *testing.T) {
	if testing.Short() {
		t.Skip("plays the workflow twice, 30 planx processes: the full run's")
	}
	f := newFanout(t)
	local := f.local(t)
	p := newPlayer(t, []byte(f.workflow), f.origin, f.env)
	p.kill["wave_2/T006"] = "after-wave-task"
	p.play(false)
	for id, want := range map[string]string{"land_1": "success", "wave_2": "failure", "land_2": "failure", "wave_3": "skipped", "land_3": "skipped"} {
		if got := p.result(id); got != want {
			t.Fatalf("first attempt: job %s %s, want %s", id, got, want)
		}
	}
	mid := f.clone(t)
	subjects := f.sh(t, mid, "git", "log", "--format=%s")
	if strings.Contains(subjects, "T006:") || !strings.Contains(subjects, "T008: Write b4") || strings.Contains(subjects, "T009:") {
		t.Fatalf("after the failed landing, main has:\n%s", subjects)
	}
	p.play(true)
	for _, id := range p.order() {
		if r := p.result(id); r != "success" {
			t.Fatalf("re-run: job %s: %s", id, r)
		}
	}
	final := f.clone(t)
	got := strings.Fields(f.sh(t, final, "git", "log", "--format=%s", "--grep=^T0", "-E"))
	if n := strings.Count(strings.Join(got, " "), "T0"); n != 12 {
		t.Fatalf("%d task commits, want 12:\n%v", n, got)
	}
	tree := func(dir string) string {
		var keep []string
		for _, l := range strings.Split(f.sh(t, dir, "git", "ls-tree", "-r", "HEAD"), "\n") {
			if !strings.Contains(l, "memory-bank/execute/") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	if tree(final) != tree(local) {
		t.Fatalf("the resumed workflow's tree differs from a local run's:\n%s\n---\n%s", tree(final), tree(local))
	}
	f.sh(t, final, "git", "fetch", "-q", "origin", "refs/notes/planx:refs/notes/planx")
	if out := f.sh(t, final, "planx", "verify", "--rev", "HEAD"); !strings.Contains(out, "verify: ok") {
		t.Fatalf("verify:\n%s", out)
	}
}
