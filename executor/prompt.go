package executor

import (
	"io"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/planx-dev/planx/agent"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/planparse"
	"github.com/planx-dev/planx/record"
)

// agentContext is what the agent's prompt says besides the task: the plan,
// the tasks done, the gates and checks that judge its work, the spec
// documents, the groups around it and the files it must leave alone.
func (r *runner) agentContext(t *planparse.Task, attempt int, feedback string) agent.Context {
	c := agent.Context{PlanPath: r.planRel, Goal: r.plan.Title, Attempt: attempt, Feedback: feedback, Repo: r.repo.Root}
	for _, lt := range r.log.Tasks {
		if lt.Status == record.TaskDone {
			if d := r.plan.Task(planparse.TaskID(lt.ID)); d != nil {
				c.Done = append(c.Done, d)
			}
		}
	}
	for _, g := range gates.Select(r.gates, t.Gates, true) {
		c.Gates = append(c.Gates, g.Name+": "+g.Command)
	}
	c.Checks = gates.AcceptanceCommands(t)
	c.Spec = specContext(r.repo.Root, r.planRel, r.plan.Format, t)
	for p := r.plan.Task(t.Parent); p != nil; p = r.plan.Task(p.Parent) {
		c.Groups = append([]*planparse.Task{p}, c.Groups...)
	}
	// A phase groups its tasks too: its introduction is their context.
	for _, ph := range r.plan.Phases {
		if ph.Title == t.Phase && ph.Intro != "" && strings.Count(ph.Intro, "\n") > 0 {
			c.Groups = append([]*planparse.Task{{Title: ph.Title, Body: ph.Intro}}, c.Groups...)
			break
		}
	}
	c.Protected = []string{r.planRel, gates.ConfigFile, path.Dir(r.log.Path) + "/"}
	for _, p := range append(append(gateScripts(r.gates), runnerConfigFiles(r.gates)...), r.reached.paths()...) {
		if fileExists(relJoin(r.repo.Root, p)) && !slices.Contains(c.Protected, p) {
			c.Protected = append(c.Protected, p)
		}
	}
	return c
}

const (
	// specDocMax bounds how much of a spec document is read to find the
	// requirements a task cites: they are quoted from its first megabyte.
	specDocMax = 1 << 20
	// specFilesMax bounds the documents named from a spec directory such as
	// spec-kit's contracts/.
	specFilesMax = 20
)

// specContext names the spec documents of the plan's feature directory
// (spec-kit's spec.md, plan.md…, Kiro's requirements.md, design.md) and
// quotes the requirements the task cites; root is the repository's, plan
// the plan's path in it. Only regular files count: a symlink could reach
// outside the repository.
func specContext(root, plan string, format planparse.Format, t *planparse.Task) agent.Spec {
	docs, dirs := agent.SpecDocs(format)
	if docs == nil {
		return agent.Spec{}
	}
	dir := path.Dir(plan)
	var s agent.Spec
	for _, d := range docs {
		if p := path.Join(dir, d); p != plan && isRegularFile(relJoin(root, p)) {
			s.Files = append(s.Files, p)
		}
	}
	for _, d := range dirs {
		entries, _ := os.ReadDir(relJoin(root, path.Join(dir, d))) // a missing directory names nothing
		for i, e := range entries {
			if i == specFilesMax {
				s.Files = append(s.Files, path.Join(dir, d)+"/ (more files)")
				break
			}
			if e.Type().IsRegular() {
				s.Files = append(s.Files, path.Join(dir, d, e.Name()))
			}
		}
	}
	refs := agent.Citations(format, t)
	if len(refs) == 0 {
		return s
	}
	s.Source = path.Join(dir, docs[0])
	// An unreadable or missing document leaves every reference "not found",
	// which is what the agent must be told.
	doc, _ := readHead(relJoin(root, s.Source), specDocMax)
	s.Cited = agent.Quote(format, doc, refs)
	return s
}

// isRegularFile reports whether p is a regular file, not following a symlink.
func isRegularFile(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode().IsRegular()
}

// readHead reads at most limit bytes from the start of the regular file p.
func readHead(p string, limit int64) (string, error) {
	if !isRegularFile(p) {
		return "", os.ErrNotExist
	}
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit))
	return string(b), err
}
