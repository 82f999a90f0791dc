package command

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The workflow planx ci github writes, played here without GitHub: its
// YAML parsed, each job run in the order its needs: give, each matrix
// entry in a clone of its own of a bare "origin", its run: steps executed
// with the matrix's values, its if: (the landing's) honoured. The steps
// that only install (actions/checkout is the clone, actions/setup-go and
// "Install planx" put this machine's Go and this test binary, as planx, on
// PATH) are not run; any other action, or an expression the player does
// not know, fails the test rather than being guessed at.

type playStep struct {
	Name string            `yaml:"name"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	Env  map[string]string `yaml:"env"`
}

type playJob struct {
	Needs    []string `yaml:"needs"`
	If       string   `yaml:"if"`
	Strategy struct {
		Matrix struct {
			Task []string `yaml:"task"`
		} `yaml:"matrix"`
	} `yaml:"strategy"`
	Steps []playStep `yaml:"steps"`
}

type playWorkflow struct {
	Env  map[string]string   `yaml:"env"`
	Jobs map[string]*playJob `yaml:"jobs"`
}

// player plays a workflow against origin.
type player struct {
	t      *testing.T
	wf     playWorkflow
	origin string
	work   string            // where each job's clone is made
	env    []string          // the hermetic environment, planx on PATH
	kill   map[string]string // "job/task": the PLANX_FAULT that job runs with
	// entry is each matrix entry's (or job's) last result: "success",
	// "failure" or "skipped"; attempts counts the clones made.
	entry    map[string]string
	attempts int
}

func newPlayer(t *testing.T, src []byte, origin string, env []string) *player {
	t.Helper()
	p := &player{t: t, origin: origin, work: t.TempDir(), env: env, kill: map[string]string{}, entry: map[string]string{}}
	if err := yaml.Unmarshal(src, &p.wf); err != nil {
		t.Fatalf("the workflow is not YAML: %v", err)
	}
	return p
}

// entries are a job's matrix entries ("" for a job without a matrix).
func (j *playJob) entries() []string {
	if len(j.Strategy.Matrix.Task) == 0 {
		return []string{""}
	}
	return j.Strategy.Matrix.Task
}

// result is a job's: failure when an entry failed, skipped when it did
// not run, else success.
func (p *player) result(id string) string {
	res := "success"
	for _, e := range p.wf.Jobs[id].entries() {
		switch p.entry[id+"/"+e] {
		case "failure":
			return "failure"
		case "", "skipped":
			res = "skipped"
		}
	}
	return res
}

var needsSuccess = regexp.MustCompile(`needs\.(\w+)\.result == 'success'`)

// runs says whether job id runs once its needs are decided: a landing's
// if (!cancelled() and one need's success), else every need's success.
func (p *player) runs(id string) bool {
	j := p.wf.Jobs[id]
	if j.If == "" {
		return !slices.ContainsFunc(j.Needs, func(n string) bool { return p.result(n) != "success" })
	}
	m := needsSuccess.FindStringSubmatch(j.If)
	if !strings.Contains(j.If, "!cancelled()") || m == nil {
		p.t.Fatalf("job %s: the player does not know if: %s", id, j.If)
	}
	return p.result(m[1]) == "success"
}

// order is the jobs in an order their needs allow (by name among those
// ready at once, as GitHub may start them in any order).
func (p *player) order() []string {
	var out []string
	done := map[string]bool{}
	for len(out) < len(p.wf.Jobs) {
		var ready []string
		for id, j := range p.wf.Jobs {
			if !done[id] && !slices.ContainsFunc(j.Needs, func(n string) bool { return !done[n] }) {
				ready = append(ready, id)
			}
		}
		if len(ready) == 0 {
			p.t.Fatalf("the jobs' needs form a cycle or name no job: %v", p.wf.Jobs)
		}
		slices.Sort(ready)
		for _, id := range ready {
			done[id] = true
		}
		out = append(out, ready...)
	}
	return out
}

// play runs the workflow: every job; or, on a re-run (GitHub's "re-run
// failed jobs"), the entries that did not succeed and every job after a
// job re-run.
func (p *player) play(rerun bool) {
	again := map[string]bool{}
	for _, id := range p.order() {
		j := p.wf.Jobs[id]
		after := slices.ContainsFunc(j.Needs, func(n string) bool { return again[n] })
		if rerun && !after && p.result(id) == "success" {
			continue
		}
		again[id] = true
		run := p.runs(id)
		for _, e := range j.entries() {
			key := id + "/" + e
			switch {
			case rerun && !after && p.entry[key] == "success":
			case !run:
				p.entry[key] = "skipped"
			default:
				p.entry[key] = p.runEntry(id, e)
			}
		}
	}
}

// runEntry runs one entry of job id (task: its matrix value) in a clone
// of its own and says how it ended.
func (p *player) runEntry(id, task string) string {
	t := p.t
	p.attempts++
	dir := filepath.Join(p.work, id+"-"+task+"-"+strings.Repeat("I", p.attempts))
	if out, err := exec.Command("git", "clone", "-q", "-b", "main", p.origin, dir).CombinedOutput(); err != nil {
		t.Fatalf("clone for %s: %v\n%s", id, err, out)
	}
	env := slices.Clone(p.env)
	for k, v := range p.wf.Env {
		env = append(env, k+"="+p.expand(v, task))
	}
	if f := p.kill[id+"/"+task]; f != "" {
		env = append(env, "PLANX_FAULT="+f)
		delete(p.kill, id+"/"+task) // killed once: its re-run runs to the end
	}
	for _, s := range p.wf.Jobs[id].Steps {
		switch {
		case strings.HasPrefix(s.Uses, "actions/checkout@"), strings.HasPrefix(s.Uses, "actions/setup-go@"), s.Name == "Install planx":
			continue
		case s.Uses != "":
			t.Fatalf("job %s: the player does not know the action %s", id, s.Uses)
		}
		senv := slices.Clone(env)
		for k, v := range s.Env {
			senv = append(senv, k+"="+p.expand(v, task))
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", p.expand(s.Run, task))
		cmd.Dir, cmd.Env = dir, senv
		out, err := cmd.CombinedOutput()
		t.Logf("== %s %s: %s\n%s", id, task, s.Name, out)
		if err != nil {
			t.Logf("== %s %s: %s failed: %v", id, task, s.Name, err)
			return "failure"
		}
	}
	return "success"
}

var expression = regexp.MustCompile(`\$\{\{[^}]*\}\}`)

// expand puts the values the player knows in place of v's expressions.
func (p *player) expand(v, task string) string {
	return expression.ReplaceAllStringFunc(v, func(e string) string {
		switch strings.Join(strings.Fields(strings.Trim(e, "${}")), " ") {
		case "github.run_id":
			return "1"
		case "matrix.task":
			return task
		}
		p.t.Fatalf("the player does not know the expression %s", e)
		return ""
	})
}
