package command

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/planx-dev/planx/internal/gittest"
)

// soakMode is one kind of trial of the soak: a plan and how it runs, the
// signals that stop it, and what else happens around it.
type soakMode struct {
	name string
	plan string
	args []string
	sigs []syscall.Signal
	// extra adds to soakRepo's repository what the plan needs (an agent,
	// ignored data, a configuration), committed or not, before the
	// pre-run state is taken.
	extra func(t *testing.T, dir string)
	// span: the signal comes at a random moment within the time an
	// uninterrupted run takes (at least 2.5 s), so every phase is hit.
	span bool
	// landing: in half the trials the signal comes while a wave lands
	// (soakLanding).
	landing bool
	// lost are files a run may delete for good (an ignored file over
	// keep_ignored: planx keeps no copy of it and says so): an abort
	// cannot put them back.
	lost []string
	// linked: a second run, uninterrupted, goes on at the same time in a
	// linked work tree of the repository; both must verify.
	linked bool
	// unfixed names the switch (PLANX_SOAK_UNFIXED) that turns the mode
	// on: a case of issue 38 not fixed yet; "" for always on.
	unfixed string
}

var (
	soakAll      = []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGKILL}
	soakHupKill  = []syscall.Signal{syscall.SIGHUP, syscall.SIGKILL}
	soakWaveArgs = []string{"run", "--jobs", "3", "plan.md"}
	soakYesArgs  = []string{"run", "--yes", "--jobs", "3", "plan.md"} // the steps that delete ignored data are rated HIGH
)

// soakModes are the soak's kinds of trial. The switch PLANX_SOAK_UNFIXED
// (a comma-separated list of the unfixed names of the modes, or "all")
// turns on the checks whose fix is not in yet, so that the soak stays
// green until it is (none at the moment: a hand fix after a SIGKILL
// mid-step, once such a switch, is checked always since a serial task's
// steps run in a task space).
func soakModes() []soakMode {
	all := []soakMode{
		{name: "serial", plan: soakPlan, args: []string{"run", "plan.md"}, sigs: soakAll},
		{name: "wave", plan: soakWavePlan, args: soakWaveArgs, sigs: soakAll},
		{name: "bigwave", plan: soakBigWavePlan, args: soakWaveArgs, sigs: soakAll, span: true, landing: true},
		{name: "agentwave", plan: soakAgentPlan, args: soakWaveArgs, sigs: soakHupKill, extra: soakAgent, span: true},
		{name: "ignored", plan: soakIgnoredPlan, args: soakYesArgs, sigs: soakAll, extra: soakIgnoredData, span: true, lost: []string{"big.bin"}},
		{name: "ignored-wave", plan: soakIgnoredWavePlan, args: soakYesArgs, sigs: soakAll, extra: soakIgnoredData, span: true, lost: []string{"big.bin"}},
		{name: "ignored-overwrite", plan: soakOverwritePlan, args: soakYesArgs, sigs: soakAll, extra: soakIgnoredData, span: true},
		{name: "linked-worktrees", plan: soakAgentPlan, args: soakWaveArgs, sigs: soakHupKill, extra: soakAgent, span: true, linked: true},
		{name: "hand-wave", plan: soakHandWavePlan, args: soakWaveArgs, sigs: soakAll},
	}
	var modes []soakMode
	for _, m := range all {
		if m.unfixed == "" || soakUnfixed(m.unfixed) {
			modes = append(modes, m)
		}
	}
	return modes
}

// soakUnfixed says whether PLANX_SOAK_UNFIXED turns on the check of name.
func soakUnfixed(name string) bool {
	on := strings.Split(os.Getenv("PLANX_SOAK_UNFIXED"), ",")
	return slices.Contains(on, name) || slices.Contains(on, "all")
}

// soakBigWavePlan has a wave whose tasks write 400 files each, so that
// landing it takes measurable time and signals land in it.
const soakBigWavePlan = "---\ntopic: soak\ngates:\n  - name: check\n    command: test -f a.txt\n---\n" +
	"- [ ] T001 Append a\n  ```sh run\n  echo a >> a.txt\n  ```\n" +
	"- [ ] T002 [P] Many b\n  ```sh run\n  mkdir -p b && for i in $(seq 1 400); do echo \"b $i\" >> b/f$i.txt; done\n  ```\n" +
	"- [ ] T003 [P] Many c\n  ```sh run\n  mkdir -p c/deep && for i in $(seq 1 400); do echo \"c $i\" >> c/deep/f$i.txt; done\n  ```\n" +
	"- [ ] T004 [P] Add d\n  ```sh run\n  echo d >> d.txt\n  ```\n" +
	"- [ ] T005 Count\n  ```sh run\n  ls b c/deep | wc -l >> count.txt\n  ```\n"

// soakHandWavePlan is soakWavePlan with a task of the wave changing
// keep.txt, the file the person's hand fix (soakHand) edits: a fix made
// before the wave lands is in its way (the landing stops, and the resume
// after that keeps the fix under a ref and lands over it).
var soakHandWavePlan = strings.Replace(soakWavePlan, "  echo b >> b.txt\n", "  echo b >> b.txt\n  echo wave >> keep.txt\n", 1)

// soakAgentPlan is a wave of agents (a scripted shell agent, soakAgent),
// one of them slow.
const soakAgentPlan = "---\ntopic: soak\nagent: ./agent.sh\n---\n" +
	"### T001: One\nExecutor: agent\nParallel: yes\nFiles:\n- Create: out/T001.txt\n\n" +
	"### T002: Two\nExecutor: agent\nParallel: yes\nFiles:\n- Create: out/T002.txt\n\n" +
	"### T003: Three\nExecutor: agent\nParallel: yes\nFiles:\n- Create: out/T003.txt\n"

// soakAgent commits the agent: it writes its task's file, slowly for T002
// (in two halves: a stop between them leaves half of it).
func soakAgent(t *testing.T, dir string) {
	gittest.WriteFileMode(t, dir, "agent.sh", "#!/bin/sh\nmkdir -p out\n"+
		"if [ \"$PLANX_TASK_ID\" = T002 ]; then echo half > out/T002.txt; sleep 0.6; fi\n"+
		"echo \"done by $PLANX_TASK_ID\" > \"out/$PLANX_TASK_ID.txt\"\n", 0o755)
	gittest.Git(t, dir, "add", "agent.sh")
	gittest.Git(t, dir, "commit", "-q", "-m", "agent", "--", "agent.sh")
}

// soakIgnoredPlan's tasks delete the user's ignored data: files planx
// keeps (local.env, data/) and one over keep_ignored (big.bin), which it
// does not keep, in the serial path (in a slot, a link to it would go,
// and it would stay), before a wave.
const soakIgnoredPlan = "---\ntopic: soak\n---\n" +
	"- [ ] T001 Delete local.env and big.bin\n  ```sh run\n  rm -f local.env big.bin\n  echo a >> a.txt\n  sleep 0.2\n  ```\n" +
	"- [ ] T002 Empty data\n  ```sh run\n  rm -rf data/*\n  echo b >> b.txt\n  sleep 0.3\n  ```\n" +
	"- [ ] T003 [P] Add c\n  ```sh run\n  echo c >> c.txt\n  ```\n" +
	"- [ ] T004 [P] Add d\n  ```sh run\n  echo d >> d.txt\n  ```\n"

// soakIgnoredWavePlan is soakIgnoredPlan with data/ emptied by a task of
// the wave, in its slot, which holds its own copy of the user's data
// (verify.OwnIgnored) while the wave's other tasks run beside it.
var soakIgnoredWavePlan = strings.Replace(soakIgnoredPlan, "T002 Empty data", "T002 [P] Empty data", 1)

// soakOverwritePlan's tasks overwrite the user's ignored data and replace
// an ignored directory by a file.
const soakOverwritePlan = "---\ntopic: soak\n---\n" +
	"- [ ] T001 Overwrite local.env\n  ```sh run\n  echo oops > local.env\n  echo a >> a.txt\n  sleep 0.2\n  ```\n" +
	"- [ ] T002 [P] Replace data\n  ```sh run\n  rm -rf data && echo oops > data\n  echo b >> b.txt\n  sleep 0.3\n  ```\n" +
	"- [ ] T003 [P] Add c\n  ```sh run\n  echo c >> c.txt\n  ```\n"

// soakIgnoredData gives the repository the user's ignored data and a
// keep_ignored limit big.bin is over.
func soakIgnoredData(t *testing.T, dir string) {
	gittest.WriteFile(t, dir, ".gitignore", "*.env\ndata/\n*.bin.big\nbig.bin\n")
	gittest.WriteFile(t, dir, ".planx.yaml", "keep_ignored: 4096\n")
	gittest.Git(t, dir, "add", ".gitignore", ".planx.yaml")
	gittest.Git(t, dir, "commit", "-q", "-m", "ignore the user's data", "--", ".gitignore", ".planx.yaml")
	gittest.WriteFile(t, dir, "local.env", "SECRET=the user's\n")
	gittest.WriteFile(t, dir, "data/db.bin", "rows\x00\x01\n")
	gittest.WriteFile(t, dir, "data/sub/more.bin", "more rows\n")
	gittest.WriteFile(t, dir, "big.bin", strings.Repeat("big, over keep_ignored\n", 400))
}

// soakHand is a person's hand fix between the stop and the recovery: an
// edit of a file they had changed before the run, and a new file.
func soakHand(t *testing.T, dir string) {
	gittest.WriteFile(t, dir, "keep.txt", "modified, not staged\nand fixed by hand after the stop\n")
	soakHandNew(t, dir)
}

// soakHandNew is the new file of the hand fix alone: what is left of it in
// the work tree when a wave landed over its edit of keep.txt, kept under
// a ref.
func soakHandNew(t *testing.T, dir string) {
	gittest.WriteFile(t, dir, "hand.txt", "a person's new file\n")
}

// soakDelay is when a trial's signal comes.
func soakDelay(rng interface{ IntN(int) int }, span time.Duration) time.Duration {
	return time.Duration(rng.IntN(int(max(span, 2500*time.Millisecond)/time.Millisecond))) * time.Millisecond
}

// soakRepoFor makes mode's repository (soakRepo, then mode.extra) and
// returns it with its pre-run state.
func soakRepoFor(t *testing.T, mode soakMode) (string, string) {
	dir, before := soakRepo(t, mode.plan)
	if mode.extra == nil {
		return dir, before
	}
	mode.extra(t, dir)
	return dir, preRunState(t, dir)
}

// soakLess is a state less the lines that name one of paths.
func soakLess(state string, paths []string) string {
	var out []string
	for _, line := range strings.Split(state, "\n") {
		if !slices.ContainsFunc(paths, func(p string) bool { return strings.HasSuffix(line, " "+p) || strings.HasSuffix(line, "\t"+p) }) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// soakHandKept says whether an abort kept the person's hand fix (soakHand)
// in the work tree or in one of planx's refs.
func soakHandKept(t *testing.T, dir string) bool {
	if b, err := os.ReadFile(dir + "/keep.txt"); err == nil && strings.Contains(string(b), "fixed by hand") {
		return true
	}
	refs := strings.Fields(gittest.Git(t, dir, "for-each-ref", "--format=%(objectname)", "refs/planx/"))
	if len(refs) == 0 {
		return false
	}
	cmd := exec.Command("git", append([]string{"grep", "-q", "-F", "fixed by hand"}, refs...)...)
	cmd.Dir = dir
	return cmd.Run() == nil
}

// soakLinked starts, in a linked work tree of dir's repository, the same
// plan run without a stop, and returns it running.
func soakLinked(t *testing.T, planx, dir string, mode soakMode) *exec.Cmd {
	other := dir + "-linked"
	gittest.Git(t, dir, "worktree", "add", "-q", "-b", "linked", other, "HEAD")
	cmd := exec.Command(planx, mode.args...)
	cmd.Dir = other
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// soakWait waits for the run in the linked work tree, when there is one.
func soakWait(other *exec.Cmd) error {
	if other == nil {
		return nil
	}
	return other.Wait()
}

// soakOther checks that the run in the linked work tree, when there is
// one, finished (err is its end), and that both work trees' runs verify.
func soakOther(t *testing.T, planx string, other *exec.Cmd, err error, dir string) string {
	if other == nil {
		return ""
	}
	if err != nil {
		return fmt.Sprintf("the run in the linked work tree: %v", err)
	}
	for _, d := range []string{other.Dir, dir} {
		if !strings.HasPrefix(gittest.Git(t, d, "log", "-1", "--format=%s"), "T0") {
			continue // (dir's run was aborted)
		}
		if o, err := planxIn(planx, d, "verify"); err != nil {
			return fmt.Sprintf("verify in %s: %v\n%s", filepath.Base(d), err, o)
		}
	}
	return ""
}

// soakLanding waits, up to limit, until a wave's landing in dir has begun
// (its ref, refs/planx/runs/<run>/landing, is there), then for after more;
// it says whether the landing was seen.
func soakLanding(dir string, limit, after time.Duration) bool {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(time.Millisecond) {
		if m, _ := filepath.Glob(filepath.Join(dir, ".git", "refs", "planx", "runs", "*", "landing")); len(m) > 0 {
			time.Sleep(after)
			return true
		}
	}
	return false
}
