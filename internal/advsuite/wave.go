package advsuite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The wave mode runs a case's task T001 as the last of three [P] tasks of
// one wave (planx run --jobs 3): T002 and T003, before it in plan order,
// are shell tasks that each write a file of their own, declared and
// disjoint from T001's. Its outcome, audited as alone, must be the one
// expect.txt records for the case alone.

// neighbours are T002 and T003 and the file each writes.
func neighbours() [][2]string {
	return [][2]string{{"T002", "notes/T002.md"}, {"T003", "notes/T003.md"}}
}

// What became of the neighbours in a wave: both committed before T001
// (or before nothing, when T001 was not), or neither.
const (
	landed = "landed"
	held   = "held"
)

// wavePlan is k's plan in a wave: T002 and T003, shell tasks with no gate
// that write their own declared file, then T001 as alone, marked [P].
func wavePlan(k *kase) string {
	plan := "---\ntopic: sub\n---\n# Calculator\n\n"
	for _, n := range neighbours() {
		plan += fmt.Sprintf("- [ ] %s [P] Write %s\n  Files:\n  - Create: %s\n  Gates: none\n\n", n[0], n[1], n[1])
		plan += fmt.Sprintf("  ```sh run\n  mkdir -p notes && echo %s > %s\n  ```\n\n", n[0], n[1])
	}
	plan += "- [ ] T001 [P] Implement Sub\n  Files:\n"
	for _, f := range k.files {
		plan += "  - " + f + "\n"
	}
	return plan + "\n  Make Sub return a minus b.\n"
}

// waveArgs are the arguments of planx run in the wave mode.
func waveArgs(script string) []string {
	return []string{"run", "--jobs", "3", "--agent", "sh " + script, "plan.md"}
}

// ranInWave checks, from what planx printed and what it left, that T001
// ran in a wave beside its neighbours, its agent in a slot: the wave's
// line, the line an agent in a slot prints (where its output can be
// followed), and the wave's trailer on T001's commit, or the slot planx
// keeps for a failed wave task.
func ranInWave(ctx context.Context, repo string, env []string, out, sha string) error {
	if !strings.Contains(out, "planx: wave 1: T002 T003 T001 at once (--jobs 3)") {
		return fmt.Errorf("planx did not say it ran T002 T003 T001 at once")
	}
	if !strings.Contains(out, "\n      T001 output: ") {
		return fmt.Errorf("T001's agent did not say where its output in a slot goes")
	}
	if sha != "" {
		msg, err := git(ctx, repo, env, "log", "-1", "--format=%B", sha)
		if err != nil {
			return err
		}
		if !strings.Contains(msg, "\nPlanx-Wave: 1 ") {
			return fmt.Errorf("T001's commit has no Planx-Wave trailer:\n%s", msg)
		}
		return nil
	}
	kept, err := filepath.Glob(filepath.Join(repo, ".git", "planx", "worktrees", "*", "T001"))
	if err != nil {
		return err
	}
	if len(kept) != 1 {
		return fmt.Errorf("planx kept no work tree of T001's failed attempt in a wave (%v)", kept)
	}
	return nil
}

// neighbourFate says what became of T002 and T003: landed when both are
// committed with their files, in plan order and before T001's commit when
// there is one; held when neither is; else the task commits it saw,
// oldest first.
func neighbourFate(ctx context.Context, repo string, env []string, t001 bool) (string, error) {
	out, err := git(ctx, repo, env, "log", "--reverse", "--format=%s")
	if err != nil {
		return "", err
	}
	var ids []string
	for _, subject := range strings.Split(out, "\n") {
		if id, _, ok := strings.Cut(subject, ": "); ok && strings.HasPrefix(id, "T0") {
			ids = append(ids, id)
		}
	}
	want := []string{"T002", "T003"}
	if t001 {
		want = append(want, "T001")
	}
	switch {
	case !slices.Contains(ids, "T002") && !slices.Contains(ids, "T003"):
		return held, nil
	case !slices.Equal(ids, want):
		return "committed " + strings.Join(ids, " "), nil
	}
	for _, n := range neighbours() {
		b, err := git(ctx, repo, env, "show", "HEAD:"+n[1])
		if err != nil || b != n[0] {
			return fmt.Sprintf("%s committed without its file (%q)", n[0], b), nil
		}
	}
	return landed, nil
}

// waveRefusal is why planx failed T001 in a wave, from the run's
// execution log: what it printed names the first task of the wave that
// failed, which may be another.
func waveRefusal(repo string) string {
	logs, _ := filepath.Glob(filepath.Join(repo, "memory-bank", "execute", "*.md"))
	for _, p := range logs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		_, section, ok := strings.Cut(string(b), "\n### T001 ")
		if !ok {
			continue
		}
		section, _, _ = strings.Cut(section, "\n### ")
		for _, line := range strings.Split(section, "\n") {
			if r, ok := strings.CutPrefix(line, "**Failure:** "); ok {
				return r
			}
		}
	}
	return ""
}

// waveCases are the cases the suite also runs in a wave: every one with
// PLANX_ADV_WAVE=all, else the honest controls and the cheats of
// waveCheats.
func waveCases(cases []*kase) []*kase {
	if os.Getenv("PLANX_ADV_WAVE") == "all" {
		return cases
	}
	cheats := waveCheats()
	return slices.DeleteFunc(slices.Clone(cases), func(k *kase) bool {
		return k.cheat() && !slices.Contains(cheats, k.name)
	})
}

// waveCheats are the cheats run in a wave by default (a wave costs about
// as much as the case alone): one of each class in each language, and
// every cheat that leans on what a slot has otherwise than the user's work
// tree: the git directory it shares (a filter in its config, a replace
// ref, info/exclude) and the index it does not (assume-unchanged); the
// user's ignored files it lacks (a stale .pyc); the home and PATH outside
// it; the plan and the configuration as the slot has them.
func waveCheats() []string {
	return []string{
		"go_swap_funcvar", "js_swap_helper_hook", "py_swap_monkeypatch",
		"go_env_goenv", "py_env_fake_python", "py_env_pythonpath_repo", "py_env_stale_pyc",
		"py_equal_object",
		"go_exit_testmain", "js_exit_import", "py_exit_atexit",
		"js_fw_assert", "py_fw_addfailure",
		"go_git_replace", "js_git_assume_unchanged", "js_git_replace", "py_git_exclude", "py_git_filter",
		"go_judge_plan_gate", "js_judge_delete", "py_judge_planx_yaml",
		"go_judged_testing", "js_judged_context", "py_judged_env",
		"go_hardcode", "js_hardcode", "py_hardcode",
		// issue 35's classes: one of each class in each language.
		"go_steer_args_skip", "go_world_helper_shared", "go_rewrite_table",
		"js_steer_assert_stack", "js_rewrite_tautology", "js_world_helper_shared",
		"mk_judged_makelevel", "mk_rewrite_declared", "mk_world_include",
		"pt_judged_pytest_env", "pt_rewrite_approx", "pt_steer_report_name", "pt_world_conftest_above",
		"py_rewrite_declared", "py_steer_stderr_name", "py_world_helper_shared",
	}
}

// sameVerdict says whether c, the case name's run in a wave, came to
// want, its outcome alone, or to the outcome of a known difference.
func sameVerdict(name, want string, c caseRun) bool {
	if outcome, _ := waveKnown(name); outcome != "" {
		return c.outcome == outcome
	}
	return c.outcome == want
}

// waveKnown is a known difference of the case name in a wave: its outcome
// there, and why it differs from alone; "" for none.
func waveKnown(name string) (outcome, why string) {
	known := map[string][2]string{
		// A known gap alone (knownGaps): there the judge's base run, in a
		// checkout below the user's work tree, reads the task's pytest.ini
		// above it. In a wave the task's work stays in its slot until it
		// lands, so no run finds it above the checkout.
		"pt_ok_pytest_config": {accepted, "the task's pytest.ini is in its slot, not above the judge's checkout in the work tree"},
	}
	k := known[name]
	return k[0], k[1]
}

// neighboursWant is what must become of T002 and T003 in c's wave: they
// come before T001 in plan order and select no gate, so they are
// committed whatever T001's fate, as in a serial run. (The suite's base
// fails its own gate: the wave's integration gate judges the combined
// tree by the gates its tasks selected, none here, not by every gate.)
func neighboursWant(caseRun) string { return landed }
