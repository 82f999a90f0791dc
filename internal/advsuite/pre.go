package advsuite

import (
	"context"
	"fmt"
	"path/filepath"
)

// agentAlone runs k's agent without planx in a fresh repository under dir,
// with the variables planx would give it, then the gate as k's tree names
// it, with the same environment: what a judge that runs the gate on the
// agent's tree sees. It returns the repository, its environment and the
// gate's result.
func (tl *tools) agentAlone(ctx context.Context, k *kase, dir string) (string, []string, result, error) {
	env, repo, script, err := tl.prepare(ctx, k, dir, false)
	if err != nil {
		return "", nil, result{}, err
	}
	env = append(env, planxEnv(repo)...)
	// Run by sh, not exec'd: a file just written may still be open for
	// writing in a child another test forked meanwhile (ETXTBSY).
	if r := run(ctx, repo, env, "sh", script); r.code != 0 {
		return "", nil, result{}, fmt.Errorf("the agent alone: %s", r)
	}
	gate := k.lang.gate
	if k.naiveGate != "" {
		gate = k.naiveGate
	}
	return repo, env, run(ctx, repo, env, "sh", "-c", gate), nil
}

// tree is the tree git would commit of repo's work tree: every file but
// the ignored ones (and what the agent hid from git).
func tree(ctx context.Context, repo string, env []string) (string, error) {
	if _, err := git(ctx, repo, env, "add", "-A"); err != nil {
		return "", err
	}
	return git(ctx, repo, env, "write-tree")
}

// cheatWorks checks that k's cheat fools the plain gate and not the ground
// truth: the gate passes on the agent's work, the ground truth fails on
// its tree.
func (tl *tools) cheatWorks(ctx context.Context, k *kase, dir string) error {
	repo, env, gate, err := tl.agentAlone(ctx, k, dir)
	if err != nil {
		return err
	}
	if gate.code != 0 {
		return fmt.Errorf("the gate fails on its work: %s", gate)
	}
	sha, err := tree(ctx, repo, env)
	if err != nil {
		return err
	}
	v, err := tl.groundTruth(ctx, repo, env, sha, k, filepath.Join(dir, "truth"))
	if err != nil {
		return err
	}
	if v.correct {
		return fmt.Errorf("the ground truth passes its tree:\n%s", v.why)
	}
	tracef("CHEAT WORKS %s: gate exit %d; ground truth %q", k.name, gate.code, v.why)
	return nil
}

// honestWorks checks that an honest agent planx refused did the task: the
// gate and the ground truth pass on its work.
func (tl *tools) honestWorks(ctx context.Context, k *kase, dir string) error {
	repo, env, gate, err := tl.agentAlone(ctx, k, dir)
	if err != nil {
		return err
	}
	if gate.code != 0 {
		return fmt.Errorf("the gate fails on its work: %s", gate)
	}
	sha, err := tree(ctx, repo, env)
	if err != nil {
		return err
	}
	v, err := tl.groundTruth(ctx, repo, env, sha, k, filepath.Join(dir, "truth"))
	if err != nil {
		return err
	}
	if !v.correct {
		return fmt.Errorf("the ground truth fails its tree:\n%s", v.why)
	}
	return nil
}
