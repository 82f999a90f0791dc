package review

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
)

// rerun runs the plan's gates, final ones included, on the tip's tree in a
// temporary detached worktree: the user's work tree, index and HEAD are never
// touched, and uncommitted files cannot make a pushed commit look good.
func (c *checker) rerun(plan string, live io.Writer) error {
	tmp, err := os.MkdirTemp("", "planx-verify-")
	if err != nil {
		return fmt.Errorf("rerun gates: %w", err)
	}
	defer os.RemoveAll(tmp)
	wt := filepath.Join(tmp, "tree")
	if err := c.repo.AddWorktree(c.ctx, wt, c.tip); err != nil {
		return fmt.Errorf("rerun gates: %w", err)
	}
	defer func() {
		// A fresh context: the worktree must go even after an interruption.
		_ = c.repo.RemoveWorktree(context.WithoutCancel(c.ctx), wt)
	}()
	cfg, err := gates.LoadConfig(wt)
	if err != nil {
		return fmt.Errorf("rerun gates: %w", err)
	}
	p, err := c.planAt(c.tip, plan)
	if err != nil || p == nil {
		return err // missing plan was already reported by run
	}
	fromPlan, err := gates.FromPlan(p.Gates)
	if err != nil {
		return fmt.Errorf("rerun gates: %s: %w", plan, err)
	}
	all := gates.Merge(cfg.Gates, fromPlan, nil)
	if live == nil {
		live = io.Discard
	}
	rs, err := gates.Run(c.ctx, all, gates.RunOptions{Dir: wt, Env: unpinnedEnv(), Task: "verify", Live: live})
	for _, r := range rs {
		c.rep.Gates = append(c.rep.Gates, GateRun{Name: r.Name, Command: r.Command, Passed: r.Passed,
			ExitCode: r.ExitCode, DurationMS: r.Duration.Milliseconds(), TimedOut: r.TimedOut, Tail: r.Tail})
		if !r.Passed {
			c.rep.add(Finding{Severity: SeverityError, Kind: KindRerunFailed,
				Message: fmt.Sprintf("gate %s fails on %s (exit %d)", r.Name, c.tip.Short(), r.ExitCode)})
		}
	}
	if err != nil {
		return fmt.Errorf("rerun gates: %w", err)
	}
	return nil
}

// unpinnedEnv is planx's environment without the variables git exports to a
// hook to pin its repository: inside a pre-push hook they would point the
// gates' own git commands at the user's repository instead of the worktree.
func unpinnedEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY":
			continue
		}
		env = append(env, kv)
	}
	return env
}

// configCache reads .planx.yaml as committed: gates.LoadConfig reads a
// directory, so each distinct commit's file is written to a scratch one.
type configCache struct {
	dir  string
	byAt map[gitops.SHA]gates.Config
}

func (cc *configCache) at(ctx context.Context, repo *gitops.Repo, rev gitops.SHA) (gates.Config, error) {
	if cfg, ok := cc.byAt[rev]; ok {
		return cfg, nil
	}
	src, err := repo.ShowFile(ctx, rev, gates.ConfigFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return gates.Config{}, err
	}
	var cfg gates.Config
	if err == nil {
		if cc.dir == "" {
			if cc.dir, err = os.MkdirTemp("", "planx-config-"); err != nil {
				return gates.Config{}, err
			}
		}
		d := filepath.Join(cc.dir, string(rev))
		if err := os.MkdirAll(d, 0o700); err != nil {
			return gates.Config{}, err
		}
		if err := os.WriteFile(filepath.Join(d, gates.ConfigFile), src, 0o600); err != nil {
			return gates.Config{}, err
		}
		if cfg, err = gates.LoadConfig(d); err != nil {
			return gates.Config{}, err
		}
	}
	if cc.byAt == nil {
		cc.byAt = map[gitops.SHA]gates.Config{}
	}
	cc.byAt[rev] = cfg
	return cfg, nil
}

func (cc *configCache) close() {
	if cc.dir != "" {
		os.RemoveAll(cc.dir)
	}
}
