package command

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/fault"
	"github.com/planx-dev/planx/internal/gittest"
)

// landingPlan has a wave large enough that its landing writes hundreds of
// files (two tasks create 300 each, one changes and deletes tracked files),
// then a serial task that reads what the wave left.
const landingPlan = "---\ntopic: landing\n---\n" +
	"- [ ] T001 [P] Many a\n  ```sh run\n  mkdir -p a && for i in $(seq 1 300); do echo \"a $i\" > a/f$i.txt; done\n  ```\n" +
	"- [ ] T002 [P] Many b\n  ```sh run\n  mkdir -p b/deep && for i in $(seq 1 300); do echo \"b $i\" > b/deep/f$i.txt; done\n  ```\n" +
	"- [ ] T003 [P] Change and delete\n  ```sh run\n  echo changed >> tracked.txt\n  rm gone.txt\n  ```\n" +
	"- [ ] T004 Count\n  ```sh run\n  ls a b/deep | wc -l > count.txt\n  cat tracked.txt >> count.txt\n  ```\n"

// landingRepo makes a repository for landingPlan with work of a person's
// before the run (a change, a staged new file, an untracked and an
// ignored file), which every outcome must keep; it returns the directory
// and its pre-run state.
func landingRepo(t *testing.T) (string, string) {
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "plan.md", landingPlan)
	gittest.WriteFile(t, dir, ".gitignore", "*.local\n")
	gittest.WriteFile(t, dir, "tracked.txt", "committed\n")
	gittest.WriteFile(t, dir, "gone.txt", "to be deleted\n")
	gittest.WriteFile(t, dir, "keep.txt", "committed\n")
	gittest.Commit(t, dir, "initial")
	gittest.WriteFile(t, dir, "keep.txt", "modified, not staged\n")
	gittest.WriteFile(t, dir, "new.txt", "staged new file\n")
	gittest.Git(t, dir, "add", "new.txt")
	gittest.WriteFile(t, dir, "untracked.bin", "bytes\x00\r\n")
	gittest.WriteFile(t, dir, "data.local", "ignored, the person's\n")
	return dir, preRunState(t, dir)
}

// landingOutcome is what a resumed run must share, byte for byte, with an
// uninterrupted one: the commits' subjects, the tree of HEAD, the index,
// status and every file's bytes (ignored ones included), less the
// execution log, whose times differ; and no landing left recorded.
func landingOutcome(t *testing.T, dir string) string {
	var b strings.Builder
	b.WriteString(gittest.Git(t, dir, "log", "--format=%s") + "\n")
	for _, out := range []string{
		gittest.Git(t, dir, "ls-tree", "-r", "HEAD"),
		gittest.Git(t, dir, "ls-files", "-s"),
		"status:\n" + gittest.Git(t, dir, "status", "--porcelain", "--ignored"),
		fileHashes(t, dir),
	} {
		for _, line := range strings.Split(out, "\n") {
			if !strings.Contains(line, "memory-bank/execute/") {
				b.WriteString(line + "\n")
			}
		}
	}
	b.WriteString("refs: " + gittest.Git(t, dir, "for-each-ref", "--format=%(refname)", "refs/planx/runs/*/landing") + "\n")
	gittest.Git(t, dir, "fsck", "--strict", "--no-progress")
	return b.String()
}

// landingRun runs landingPlan with --jobs 3 and the fault hook hook, then
// resumes until the run is done, and returns the run's output.
func landingRun(t *testing.T, env []string, planx, dir, hook, person string) string {
	t.Helper()
	cmd := exec.Command(planx, "run", "--jobs", "3", "plan.md")
	cmd.Dir = dir
	cmd.Env = withEnv(env, fault.Env+"="+hook, fault.RunEnv+"="+person)
	b, err := cmd.CombinedOutput()
	out := string(b)
	if err == nil {
		return out
	}
	waitForGit(t, dir)
	for range 3 {
		o, err := planxEnvIn(env, planx, dir, "resume")
		out += "\n--- resume\n" + o
		if err == nil {
			return out
		}
	}
	t.Fatalf("with %s the run never finished:\n%s", hook, out)
	return ""
}

// TestLandingCut stops a wave's landing at each of its phases (before git
// writes the work tree, after it did and before the branch moved, after
// the branch moved) with SIGKILL, SIGINT, SIGTERM and SIGHUP: resume
// finishes with what an uninterrupted run makes, byte for byte, and abort
// puts back the state before the run. A person's commit at those phases
// is kept, and the wave lands on it.
func TestLandingCut(t *testing.T) {
	if testing.Short() {
		t.Skip("stops a large wave's landing at each of its phases")
	}
	t.Parallel()
	planx := planxBinary(t)
	env := gittest.EnvironHome(t.TempDir())
	dir, _ := landingRepo(t)
	if out, err := planxEnvIn(env, planx, dir, "run", "--jobs", "3", "plan.md"); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}
	want := landingOutcome(t, dir)
	for _, point := range append(fault.LandingPoints(), "after-advance") {
		for _, sig := range []string{"KILL", "INT", "TERM", "HUP"} {
			t.Run(point+"/"+sig, func(t *testing.T) {
				hook := point
				if sig != "KILL" {
					hook += ":" + sig
				}
				dir, _ := landingRepo(t)
				out := landingRun(t, env, planx, dir, hook, "")
				if got := landingOutcome(t, dir); got != want {
					t.Fatalf("after %s at %s and resume:\n%s\nuninterrupted:\n%s\noutput:\n%s", sig, point, got, want, out)
				}
				// Only a kill can part the work tree from the branch: 600 new files,
				// a change, a deletion, the plan ticked and the log.
				cut := strings.Contains(out, "wave 1's landing was cut before the branch moved: 604 files it had written put back")
				if cut != (point == "after-read-tree" && sig == "KILL") {
					t.Errorf("after %s at %s, resume says the landing was cut: %v\n%s", sig, point, cut, out)
				}
			})
		}
		t.Run(point+"/abort", func(t *testing.T) {
			dir, before := landingRepo(t)
			cmd := exec.Command(planx, "run", "--jobs", "3", "plan.md")
			cmd.Dir = dir
			cmd.Env = withEnv(env, fault.Env+"="+point)
			out, _ := cmd.CombinedOutput()
			waitForGit(t, dir)
			if o, err := planxEnvIn(env, planx, dir, "abort", "--yes"); err != nil {
				t.Fatalf("abort after a kill at %s: %v\n%s\n%s", point, err, out, o)
			}
			if got := preRunState(t, dir); got != before {
				t.Fatalf("abort after a kill at %s:\n%s\nwant the state before the run:\n%s", point, got, before)
			}
		})
	}
	t.Run("person-commits", func(t *testing.T) { landingPersonCommits(t, env, planx, want) })
}

// landingPersonCommits has a person commit while the wave lands: a file of
// their own before git writes the work tree, or everything staged (the
// wave's files, which git has just written, included) before the branch
// moves. The person's commit stays on the branch, the wave lands on it,
// and the tree and files are an uninterrupted run's, with the person's
// commit's own.
func landingPersonCommits(t *testing.T, env []string, planx, want string) {
	subjects := func(o string) string { s, _, _ := strings.Cut(o, "\n100644"); return s }
	for _, c := range []struct{ point, person, theirs string }{
		{"before-advance", "echo mine > mine.txt && git add mine.txt && git commit -qm person --only mine.txt", "mine.txt"},
		{"after-read-tree", "echo mine > mine.txt && git add mine.txt && git commit -qm person --only mine.txt", "mine.txt"},
		// (The rollback commit has the person's files already.)
		{"after-read-tree", "git commit -qm person", ""},
	} {
		t.Run(c.point+"/"+strings.Fields(c.person)[len(strings.Fields(c.person))-1], func(t *testing.T) {
			dir, _ := landingRepo(t)
			out := landingRun(t, env, planx, dir, c.point+":run", c.person)
			if !strings.Contains(out, "took the branch while wave 1 landed") {
				t.Errorf("the stop does not say a person's commit took the branch:\n%s", out)
			}
			got := landingOutcome(t, dir)
			wantSubjects := strings.Replace(subjects(want), "rollback:", "person\nrollback:", 1)
			if s := subjects(got); s != wantSubjects {
				t.Fatalf("commits:\n%s\nwant:\n%s\noutput:\n%s", s, wantSubjects, out)
			}
			if g, w := treeLess(t, dir, "HEAD", c.theirs), landingTreeOf(want); g != w {
				t.Fatalf("tree with the person's commit:\n%s\nwant:\n%s\noutput:\n%s", g, w, out)
			}
			if c.theirs != "" {
				gittest.Git(t, dir, "cat-file", "-e", "HEAD:"+c.theirs) // the person's file is in the history
			}
			if g, w := hashesLess(t, dir, "mine.txt"), hashesOf(want); g != w {
				t.Fatalf("files:\n%s\nwant:\n%s", g, w)
			}
		})
	}
}

// treeLess is ls-tree -r of rev less the execution log and path (none
// when "").
func treeLess(t *testing.T, dir, rev, path string) string {
	var b strings.Builder
	for _, line := range strings.Split(gittest.Git(t, dir, "ls-tree", "-r", rev), "\n") {
		if !strings.Contains(line, "memory-bank/execute/") && (path == "" || !strings.HasSuffix(line, "\t"+path)) {
			fmt.Fprintln(&b, line)
		}
	}
	return b.String()
}

// landingTreeOf is the ls-tree part of a landingOutcome.
func landingTreeOf(outcome string) string {
	var b strings.Builder
	for _, line := range strings.Split(outcome, "\n") {
		if strings.HasPrefix(line, "100644 blob") || strings.HasPrefix(line, "100755 blob") {
			fmt.Fprintln(&b, line)
		}
	}
	return b.String()
}

// hashesLess is fileHashes of dir less the execution log and path.
func hashesLess(t *testing.T, dir, path string) string {
	var b strings.Builder
	for _, line := range strings.Split(fileHashes(t, dir), "\n") {
		if line != "" && !strings.Contains(line, "memory-bank/execute/") && !strings.HasSuffix(line, " "+path) {
			fmt.Fprintln(&b, line)
		}
	}
	return b.String()
}

// hashesOf is the fileHashes part of a landingOutcome.
func hashesOf(outcome string) string {
	var b strings.Builder
	for _, line := range strings.Split(outcome, "\n") {
		if f := strings.Fields(line); len(f) == 2 && len(f[0]) == 64 {
			fmt.Fprintln(&b, line)
		}
	}
	return b.String()
}
