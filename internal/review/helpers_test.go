package review

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/ledger/records"
	"github.com/planx-dev/planx/planparse"
)

// testPlan has three tasks, T002 depending on T001, and one gate.
const testPlan = `---
topic: three
gates:
  - name: check
    command: "true"
---
# Three

- [ ] T001 Add a
  ` + "```sh run\n  echo a > a.txt\n  ```" + `
- [ ] T002 Add b
  Depends on: T001
  ` + "```sh run\n  echo b > b.txt\n  ```" + `
- [ ] T003 Add c
  ` + "```sh run\n  echo c > c.txt\n  ```" + `
`

const (
	planPath = "plan.md"
	logPath  = "memory-bank/execute/2026-01-02_03-04-05_three.md"
)

// history builds planx-shaped commits by hand, the way the executor writes
// them, so review is tested against the documented format rather than
// against whatever the executor does today.
type history struct {
	t    *testing.T
	dir  string
	repo *gitops.Repo
	// elsewhere: the commits are not recorded as made here, as in a clone
	// of the repository that ran the plan.
	elsewhere bool
}

func newHistory(t *testing.T) *history {
	t.Helper()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "README", "x\n")
	gittest.Commit(t, dir, "initial")
	repo, err := gitops.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return &history{t: t, dir: dir, repo: repo}
}

// rollback commits plan (and anything else in the tree) as a run's rollback commit.
func (h *history) rollback(run, plan string) gitops.SHA {
	h.t.Helper()
	gittest.WriteFile(h.t, h.dir, planPath, plan)
	return h.commit(fmt.Sprintf("rollback: before executing plan three\n\nSnapshot.\n\nRefs: %s\nPlanx-Run: %s\nPlanx-Rollback: true\n", planPath, run))
}

// task ticks id in the plan, writes file, updates the log and commits with
// trailers; extra trailer lines replace the default gate line when given.
func (h *history) task(run, id, file string, extra ...string) gitops.SHA {
	h.t.Helper()
	src := gittest.Git(h.t, h.dir, "show", "HEAD:"+planPath) + "\n"
	p, err := planparse.Parse(planPath, []byte(src), planparse.Options{})
	if err != nil {
		h.t.Fatal(err)
	}
	pt := p.Task(planparse.TaskID(id))
	hash := "sha256:0000000000000000000000000000000000000000000000000000000000000000"
	if pt != nil {
		hash = "sha256:" + pt.Hash()
		if ticked, ok := planparse.Tick([]byte(src), pt); ok {
			src = string(ticked)
		}
	}
	gittest.WriteFile(h.t, h.dir, planPath, src)
	if file != "" {
		gittest.WriteFile(h.t, h.dir, file, id+"\n")
	}
	old := ""
	if b, err := gittest.TryGit(h.dir, "", "show", "HEAD:"+logPath); err == nil {
		old = b
	}
	gittest.WriteFile(h.t, h.dir, logPath, old+"### "+id+" – title\n\n- **Status:** done\n\n## Issues\n")
	trailers := []string{"check=pass 12ms"}
	lines := fmt.Sprintf("Refs: %s\nPlanx-Run: %s\nPlanx-Task: %s\nPlanx-Task-Hash: %s\nPlanx-Executor: shell\n", planPath, run, id, hash)
	var sha gitops.SHA
	if len(extra) > 0 {
		sha = h.commit(fmt.Sprintf("%s: title\n\nTask %s.\n\n%s%s\n", id, id, lines, strings.Join(extra, "\n")))
	} else {
		for _, g := range trailers {
			lines += "Planx-Gate: " + g + "\n"
		}
		sha = h.commit(fmt.Sprintf("%s: title\n\nTask %s.\n\n%s", id, id, lines))
	}
	if !h.elsewhere {
		// As the executor does: this repository made the commit.
		tree := gitops.SHA(gittest.Git(h.t, h.dir, "rev-parse", string(sha)+"^{tree}"))
		if err := records.Of(h.repo).AddMade(run, records.MadeCommit{Task: id, Commit: sha, Tree: tree}); err != nil {
			h.t.Fatal(err)
		}
	}
	return sha
}

func (h *history) commit(msg string) gitops.SHA {
	h.t.Helper()
	gittest.Git(h.t, h.dir, "add", "-A")
	gittest.GitInput(h.t, h.dir, msg, "commit", "-q", "--no-verify", "--allow-empty", "--cleanup=whitespace", "-F", "-")
	return gitops.SHA(gittest.Git(h.t, h.dir, "rev-parse", "HEAD"))
}

// fullRun makes a rollback and T001..T003 and returns the rollback's SHA.
func (h *history) fullRun(run string) gitops.SHA {
	h.t.Helper()
	rb := h.rollback(run, testPlan)
	h.task(run, "T001", "a.txt")
	h.task(run, "T002", "b.txt")
	h.task(run, "T003", "c.txt")
	return rb
}
