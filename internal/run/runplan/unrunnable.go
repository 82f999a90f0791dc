package runplan

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/planx-dev/planx/planparse"
)

// RefuseUnrunnable refuses, before anything changes, a plan a run would
// misread: one without a single task (a README run by mistake), or a task
// to run whose only code is a shell block without `run`, which planx would
// hand to a person after the rollback commit and exit 0 on.
func (s *Setup) RefuseUnrunnable(planRel string, run []*planparse.Task) error {
	if len(s.Plan.Tasks) == 0 {
		return fmt.Errorf("%w: %s has no task; planx runs task lines such as `- [ ] T001 Add the parser` or headings such as `### T001: Add the parser`, with the commands in a ```sh run block under each (see docs/plan-format.md)",
			planparse.ErrInvalid, planRel)
	}
	var bad []string
	for _, t := range run {
		explicit := cmp.Or(t.Executor, s.Plan.Executor, s.Config.Executor) != ""
		if explicit || s.Executor(t) != planparse.KindManual {
			continue // manual by the task's, the plan's or the config's word, or one that runs
		}
		if line, lang := shellFence(t); line > 0 {
			bad = append(bad, fmt.Sprintf("%s:%d: task %s has a ```%s block without `run`, so planx would run nothing and hand the task to a person",
				planRel, line, t.ID, lang))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("%w:\n%s\nmark the block ```sh run (or ```bash run) to have planx run it, write `Executor: manual` on the task if a person should do it, or pass --agent to have an agent do it",
		planparse.ErrInvalid, strings.Join(bad, "\n"))
}

// shellLangs are the fence languages that read as commands to run.
var shellLangs = map[string]bool{"sh": true, "bash": true, "shell": true, "zsh": true, "ksh": true, "dash": true,
	"fish": true, "console": true, "shell-session": true, "shellsession": true}

// shellFence finds the first fence in t's text that opens a shell block
// without `run` (a task with a `run` block has steps and never gets here):
// its plan line and its language, or 0.
func shellFence(t *planparse.Task) (int, string) {
	open := ""
	for i, l := range strings.Split(t.Body, "\n") {
		s := strings.TrimSpace(l)
		if open != "" {
			if strings.HasPrefix(s, open) && strings.Trim(s, open[:1]) == "" {
				open = ""
			}
			continue
		}
		mark := ""
		switch {
		case strings.HasPrefix(s, "```"):
			mark = "```"
		case strings.HasPrefix(s, "~~~"):
			mark = "~~~"
		default:
			continue
		}
		n := len(s) - len(strings.TrimLeft(s, mark[:1]))
		open = s[:n]
		f := strings.Fields(s[n:])
		if len(f) == 0 {
			continue
		}
		if lang := strings.ToLower(strings.Trim(f[0], "{}.")); shellLangs[lang] {
			return t.Line + i, lang
		}
	}
	return 0, ""
}
