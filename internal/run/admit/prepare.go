package admit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/run/land"
	"github.com/planx-dev/planx/internal/run/planfile"
	"github.com/planx-dev/planx/internal/run/runplan"
	"github.com/planx-dev/planx/internal/run/runstate"
	"github.com/planx-dev/planx/planparse"
)

// Prepared is a run prepared from its options, before anything changes:
// the repository and the plan they name, the plan's settings pinned, and
// the options with the defaults those settings give. The executor makes
// its runner from it; the dry run, Assess and Waves read it and change
// nothing.
type Prepared struct {
	O              Options          // as given, with the pinned settings' defaults
	Repo           *gitops.Repo     // nil for a dry run outside a repository
	*runplan.Setup                  // the plan, its configuration and gates: what the run executes
	PF             *planfile.File   // the plan file and the bytes planx last read or wrote there
	PlanRel        string           // the plan's path, repo-relative, slash-separated
	Pinned         *runstate.Pinned // pinned at run start: cfg and gates come from it
	Paths          land.CommitPath  // how the run's commits are made (land.ChooseCommitPath)
}

// Prepare opens the repository, parses and validates the plan and merges
// the gates. pinned are the settings a stopped run pinned at its start
// (resume), nil for a new run, which pins them now.
func Prepare(ctx context.Context, o Options, pinned *runstate.Pinned) (*Prepared, error) {
	if o.Out == nil {
		o.Out = io.Discard
	}
	planAbs := o.PlanPath
	if !filepath.IsAbs(planAbs) && o.Dir != "" {
		planAbs = filepath.Join(o.Dir, planAbs)
	}
	planAbs, err := filepath.Abs(planAbs)
	if err != nil {
		return nil, fmt.Errorf("plan %s: %w", o.PlanPath, err)
	}
	dir := o.Dir
	if dir == "" {
		dir = filepath.Dir(planAbs)
	}
	repo, err := gitops.Open(ctx, dir)
	if err != nil && !(o.DryRun && errors.Is(err, gitops.ErrRepoState)) {
		return nil, err
	}
	// A dry run outside a repository still shows the plan: it reads
	// .planx.yaml beside it and says that a run needs git.
	root, rel := dir, filepath.ToSlash(o.PlanPath)
	if repo != nil {
		root = repo.Root
		rel, err = repo.Rel(planAbs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			return nil, fmt.Errorf("%w: plan %s is outside the repository %s; move it into the repository or use -C", gitops.ErrRepoState, o.PlanPath, repo.Root)
		}
		if o.Dir == "" {
			if err := sameRepository(ctx, repo, o.PlanPath, rel); err != nil {
				return nil, err
			}
		}
	}
	plan, err := readPlan(o, planAbs, rel)
	if err != nil {
		return nil, err
	}
	j := pinned
	if j == nil {
		if j, err = runstate.PinNow(ctx, repo, root, plan, o.Gates); err != nil {
			return nil, err
		}
	} else if err := gates.CheckTasks(j.Gates, plan); err != nil {
		return nil, err
	}
	var paths land.CommitPath
	if repo != nil {
		j.Apply(repo)
		if paths, err = land.ChooseCommitPath(ctx, repo, o.NoVerify); err != nil {
			return nil, err
		}
	}
	cfg := j.Config
	if o.StepTimeout == 0 {
		o.StepTimeout = cfg.StepTimeout
	}
	if o.TaskTimeout == 0 {
		o.TaskTimeout = cfg.TaskTimeout
	}
	if o.Jobs == 0 {
		o.Jobs = cfg.Jobs
	}
	if o.Attempts == 0 {
		o.Attempts = max(cfg.Attempts, 1)
	}
	gs := j.Gates
	return &Prepared{
		O: o, Repo: repo, PlanRel: rel, PF: planfile.New(planAbs, rel, plan),
		Setup:  &runplan.Setup{Plan: plan, Config: cfg, Gates: gs, AgentFlag: o.Agent, GateFlags: o.Gates, Repo: repo},
		Pinned: j, Paths: paths,
	}, nil
}

// readPlan parses the plan at planAbs, rel in the repository, and refuses
// one with errors (planfile.Read); --topic names it for the agents.
func readPlan(o Options, planAbs, rel string) (*planparse.Plan, error) {
	plan, err := planfile.Read(planAbs, rel, o.Format)
	if err != nil {
		return nil, err
	}
	if o.Topic != "" {
		plan.Topic = o.Topic
	}
	return plan, nil
}

// sameRepository refuses a plan that lies in another work tree than the
// one planx was started in (another repository, a linked work tree of
// this one, a submodule): the run would make its rollback and task
// commits there, not where the person typed the command. Started outside
// any work tree, planx runs in the plan's.
func sameRepository(ctx context.Context, repo *gitops.Repo, planPath, rel string) error {
	here, err := gitops.Open(ctx, ".")
	if err != nil || here.Root == repo.Root {
		return nil
	}
	return fmt.Errorf("%w: plan %s is in the repository %s, not in %s where planx was started; "+
		"a run commits in the plan's repository: cd %s && planx run %s (or planx -C %s run %s)",
		gitops.ErrRepoState, planPath, repo.Root, here.Root, repo.Root, rel, repo.Root, rel)
}
