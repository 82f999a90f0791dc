package execute

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/agent"
	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/internal/sandbox"
	"github.com/planx-dev/planx/internal/space"
	"github.com/planx-dev/planx/planparse"
)

// Jail is the run's confinement of agents (and, opted in, steps): what the
// platform allows, probed once, at the first process that needs it. Make
// it with NewJail; the agents of a parallel wave share it.
type Jail struct {
	mu  sync.Mutex // the probe and the one warning
	cfg gates.Sandbox
	// readOnly are the repository's git directories: a confined process may
	// read them, never write them.
	readOnly []string
	// desk takes the one warning, against the task that met it.
	desk   hall.Desk
	c      *sandbox.Confinement
	err    error
	probed bool
	warned bool
	// Task spaces (space.go): probed once, in the background from Warm or
	// at the first task that asks; the judge's spaces share the answer.
	spaceProbe *space.Prober
}

// NewJail is the confinement .planx.yaml asks for (cfg), keeping the git
// directories readOnly; desk is warned once when it is weaker than asked
// (nil: nobody is).
func NewJail(cfg gates.Sandbox, readOnly []string, desk hall.Desk) *Jail {
	return &Jail{cfg: cfg, readOnly: readOnly, desk: desk, spaceProbe: space.NewProber("")}
}

// Probe finds the run's confinement once: what the platform allows under
// the configured mode. With `sandbox: required` it fails where Full is
// impossible; the preflight calls it so that this happens before the
// rollback commit.
func (j *Jail) Probe() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.probe()
}

func (j *Jail) probe() error {
	if !j.probed {
		j.probed = true
		mode, err := sandbox.ParseMode(j.cfg.Mode)
		if err == nil {
			j.c, err = sandbox.New(mode, sandbox.Policy{})
		}
		if err != nil && mode == sandbox.Required && j.spaces() {
			// Task spaces confine fully: denial need not.
			j.c, err = sandbox.New(sandbox.Auto, sandbox.Policy{})
		}
		if err != nil {
			j.err = fmt.Errorf("%w: %v", ErrAgentMissing, err)
		}
	}
	return j.err
}

// confinement returns the run's confinement, warning once (in auto mode)
// when it is weaker than Full.
func (j *Jail) confinement(id planparse.TaskID) (*sandbox.Confinement, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.probe(); err != nil {
		return nil, err
	}
	if mode, _ := sandbox.ParseMode(j.cfg.Mode); mode == sandbox.Auto && !j.warned && j.c.Level != sandbox.Full && j.desk != nil {
		j.warned = true
		hall.Warn(j.desk, id, fmt.Sprintf("sandbox %s: %s", j.c.Level, j.c.Weaker()))
	}
	return j.c, nil
}

// confined is a task's process confinement: it may write the work tree dir
// (not the git directory), its private temporary directory tmp, the
// agent's state directory and caches, the preset's own files in HOME and
// the paths .planx.yaml lists under sandbox.writable. It returns the
// wrapper for proc.Spec.Wrap (nil when unconfined) and the level.
func (j *Jail) confined(id planparse.TaskID, dir, tmp string, extra ...string) (func(*exec.Cmd) error, sandbox.Level, error) {
	c, err := j.confinement(id)
	if err != nil {
		return nil, "", err
	}
	if c.Level == sandbox.None {
		return nil, sandbox.None, nil
	}
	home, _ := os.UserHomeDir()
	w := []string{dir, tmp}
	w = append(w, extra...)
	for _, p := range j.cfg.Writable {
		if rest, ok := strings.CutPrefix(p, "~/"); ok && home != "" {
			p = filepath.Join(home, rest)
		}
		w = append(w, p)
	}
	cc := c.With(sandbox.Policy{Writable: w, ReadOnly: readOnlyIn(j.readOnly, dir)})
	return cc.Wrap, c.Level, nil
}

// readOnlyIn are the paths kept read-only for a process in the work tree
// dir: the git directories, and in a linked work tree (a wave's slot) its
// .git file, which points git at them: rewritten, it would have planx
// judge another repository.
func readOnlyIn(gitDirs []string, dir string) []string {
	p := filepath.Join(dir, ".git")
	if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
		return append(slices.Clone(gitDirs), p)
	}
	return gitDirs
}

// taskTemp makes the private temporary directory of a task's process,
// outside the work tree and the git directory; remove it when done.
func taskTemp(t *planparse.Task) (string, func(), error) {
	dir, err := os.MkdirTemp("", "planx-"+string(t.ID)+"-")
	if err != nil {
		return "", nil, fmt.Errorf("%s: private temporary directory: %w", t.ID, err)
	}
	return dir, func() { _ = os.RemoveAll(dir) }, nil
}

// agent confines an agent to the work tree dir: its wrapper and level, and
// the variables that point its temporary files and build caches at places
// it may write (a Go build with an unwritable GOCACHE fails). The caches
// are the agent's own, under the user's cache directory: the gates never
// read them.
func (j *Jail) agent(id planparse.TaskID, dir, tmp, stateDir string, cmd agent.Command) (func(*exec.Cmd) error, sandbox.Level, []string, error) {
	env := []string{"TMPDIR=" + tmp, "TMP=" + tmp, "TEMP=" + tmp}
	home, _ := os.UserHomeDir()
	extra := []string{stateDir}
	for _, s := range cmd.State {
		if home != "" {
			extra = append(extra, filepath.Join(home, s))
		}
	}
	if base, err := os.UserCacheDir(); err == nil {
		cache := filepath.Join(base, "planx", "agent")
		if err := os.MkdirAll(cache, 0o700); err == nil {
			extra = append(extra, cache)
			env = append(env, "GOCACHE="+filepath.Join(cache, "go-build"),
				"npm_config_cache="+filepath.Join(cache, "npm"), "PIP_CACHE_DIR="+filepath.Join(cache, "pip"))
		}
	}
	wrap, level, err := j.confined(id, dir, tmp, extra...)
	if err != nil || level == sandbox.None {
		return nil, level, []string{"TMPDIR=" + tmp, "TMP=" + tmp, "TEMP=" + tmp}, err
	}
	return wrap, level, env, nil
}

// steps confines the plan's own steps to dir when .planx.yaml opts in
// (sandbox.steps): like an agent, without a preset's files. It returns
// the wrapper (nil: unconfined), the variables to add and a cleanup. A nil
// Jail confines nothing.
func (j *Jail) steps(t *planparse.Task, lt *execlog.Task, dir, stateDir string) (func(*exec.Cmd) error, []string, func(), error) {
	if j == nil || !j.cfg.Steps {
		return nil, nil, func() {}, nil
	}
	tmp, remove, err := taskTemp(t)
	if err != nil {
		return nil, nil, nil, err
	}
	wrap, level, env, err := j.agent(t.ID, dir, tmp, stateDir, agent.Command{})
	if err != nil {
		remove()
		return nil, nil, nil, err
	}
	lt.Sandbox = string(level)
	return wrap, env, remove, nil
}
