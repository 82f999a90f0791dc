package verify

import (
	"context"
	"crypto/sha256"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fsutil"
	"github.com/planx-dev/planx/internal/judge"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/planparse"
)

// maxHiddenBaseline bounds the skip-worktree/assume-unchanged entries kept
// in the run state (a sparse checkout flags most of a repository); beyond
// it the check is off and the log says so.
const maxHiddenBaseline = 1000

// Watch is what planx notes before an executor runs, to see afterwards
// whether it hid work from the judge or changed what the judge runs with.
type Watch struct {
	Log     [sha256.Size]byte `json:"log"` // of the execution log's bytes (none: of no bytes)
	Ignored []string          `json:"ignored,omitempty"`
	// Rules are the ignore rules before the executor ran (agents only;
	// nil in a watch an older planx saved).
	Rules *IgnoreRules `json:"rules,omitempty"`
	// Resumed: loaded on resume, when the log was rewritten since.
	Resumed bool `json:"-"`
}

// StartWatch is taken before the executor runs, in repo's work tree whose
// execution log is at logPath; an agent's watch notes the ignored files
// and the ignore rules too.
func StartWatch(ctx context.Context, repo *gitops.Repo, logPath string, agent bool) (*Watch, error) {
	w := &Watch{}
	b, _ := os.ReadFile(fsutil.Under(repo.Root, logPath))
	w.Log = sha256.Sum256(b)
	if agent {
		var err error
		if w.Ignored, err = repo.Index().IgnoredFiles(ctx); err != nil {
			return nil, err
		}
		rules, err := readIgnoreRules(ctx, repo, false)
		if err != nil {
			return nil, err
		}
		w.Rules = &rules
	}
	return w, nil
}

// StartFreshWatch is StartWatch for an agent in a checkout just cleaned
// for it (a wave's slot, with nothing installed in it): it holds no
// ignored and no untracked file, so the watch notes none and reads the
// ignore rules from the index, without walking the tree twice.
func StartFreshWatch(ctx context.Context, repo *gitops.Repo, logPath string) (*Watch, error) {
	w := &Watch{}
	b, _ := os.ReadFile(fsutil.Under(repo.Root, logPath))
	w.Log = sha256.Sum256(b)
	rules, err := readIgnoreRules(ctx, repo, true)
	if err != nil {
		return nil, err
	}
	w.Rules = &rules
	return w, nil
}

// HiddenBaseline lists, at the run's start, the index entries already
// flagged skip-worktree or assume-unchanged: those are the user's.
// tooMany says there are more than the run state keeps: the check is off.
func HiddenBaseline(ctx context.Context, repo *gitops.Repo) (hidden []string, tooMany bool, err error) {
	hidden, err = repo.Index().HiddenEntries(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("preflight: %w", err)
	}
	if len(hidden) > maxHiddenBaseline {
		return nil, true, nil
	}
	return hidden, false, nil
}

// Hiding is what the check for work hidden from git compares with.
type Hiding struct {
	Log   string // the execution log's path
	Watch *Watch // nil when the work was done before this planx started (resume)
	// Hidden is the run's HiddenBaseline; Off: it had too many to keep.
	Hidden []string
	Off    bool
	// GatesInTree: the gates run in the work tree (--clean-gates=false),
	// where they see the files git ignores.
	GatesInTree bool
}

// Hiding fails an agent task (warns for others) that hid changes from
// git. (What it could change outside the repository, the sandbox keeps it
// from writing: docs/sandbox.md.) Without a watch only what git itself
// records can be checked. It returns the agent's outputs: the ignored
// files it made that the rules before it ignore (newIgnored).
func (w Work) Hiding(ctx context.Context, h Hiding) ([]string, error) {
	var bad, outputs []string
	if h.Watch != nil && !h.Watch.Resumed {
		if now, _ := os.ReadFile(w.path(h.Log)); sha256.Sum256(now) != h.Watch.Log {
			bad = append(bad, "modified the execution log "+h.Log)
		}
	}
	// Agents only: one ls-files of the whole index per task is not worth
	// it for the user's own steps.
	if w.Kind == planparse.KindAgent && !h.Off {
		hidden, err := w.Repo.Index().HiddenEntries(ctx)
		if err != nil {
			return nil, err
		}
		if fresh := slices.DeleteFunc(hidden, func(e string) bool { return slices.Contains(h.Hidden, e) }); len(fresh) > 0 {
			bad = append(bad, "hid files from git: "+strings.Join(fresh, ", "))
			if err := w.Repo.Index().ClearHidden(ctx, fresh); err != nil {
				return nil, err
			}
		}
	}
	if h.Watch != nil && w.Kind == planparse.KindAgent {
		hidden, outs, err := w.newIgnored(ctx, h)
		if err != nil {
			return nil, err
		}
		bad, outputs = append(bad, hidden...), outs
	}
	if len(bad) == 0 {
		return outputs, nil
	}
	msg := "the task hid work from the judge: " + strings.Join(bad, "; ")
	if w.Kind == planparse.KindAgent {
		return nil, &outcome.Failure{What: msg}
	}
	hall.Warn(w.Desk, w.Task.ID, msg)
	return outputs, nil
}

// GitDirWritten fails a task that wrote into .git/ (changed: config,
// hooks, info/) and undoes the writes from the snapshot taken before the
// task (nil: none was taken): a task must never leave a hook or a config
// behind for the user's next git command.
func GitDirWritten(repo *gitops.Repo, snap *MetaSnapshot, changed []string) error {
	what := "the task wrote to the git directory (" + strings.Join(changed, ", ") + "); .git/ is never a task's output"
	if snap == nil {
		return &outcome.Failure{What: what + ": restore it by hand"}
	}
	return &outcome.Failure{What: what + UndoGitDir(repo, snap)}
}

// UndoGitDir restores the git directory's files from snap and says how it
// went, as a clause to append to what found the writes.
func UndoGitDir(repo *gitops.Repo, snap *MetaSnapshot) string {
	restored, err := RestoreMeta(repo, snap)
	switch {
	case err != nil:
		return fmt.Sprintf("; planx restored %s but not everything (%v): check .git/ by hand", strings.Join(restored, ", "), err)
	case len(restored) > 0:
		return "; planx undid it from its snapshot: " + strings.Join(restored, ", ")
	}
	return ""
}

// An agent that builds and tests leaves files the repository's ignore rules
// ignore (bin/, .coverage, __pycache__/, dist/): outputs, not hidden work.
// Work is hidden when only a rule the task itself wrote (a new .gitignore
// line, a new .gitignore) ignores it; the commit must also stand without
// the outputs, so the gates judge it in a clean checkout.

// newIgnored returns what the agent hid behind ignore rules of its own, as
// the failure's clauses, and its outputs: the ignored entries that were
// not there before it ran, split by whether the rules in force before it
// ignore them.
func (w Work) newIgnored(ctx context.Context, h Hiding) (bad, outputs []string, err error) {
	now, err := w.Repo.Index().IgnoredFiles(ctx)
	if err != nil {
		return nil, nil, err
	}
	fresh := slices.DeleteFunc(now, func(e string) bool { return slices.Contains(h.Watch.Ignored, e) })
	if len(fresh) == 0 {
		return nil, nil, nil
	}
	var old []string
	if h.Watch.Rules != nil {
		if old, err = ignoredUnder(ctx, w.Repo, *h.Watch.Rules, fresh); err != nil {
			return nil, nil, err
		}
	} else {
		// A watch an older planx saved, without the rules: what tools are
		// known to make counts as output.
		old = slices.DeleteFunc(slices.Clone(fresh), func(p string) bool { return !judge.BuildOutput(p) })
	}
	notOld := slices.DeleteFunc(slices.Clone(fresh), func(p string) bool { return slices.Contains(old, p) })
	self, err := w.selfIgnored(ctx, h.Watch.Rules, notOld)
	if err != nil {
		return nil, nil, err
	}
	var own, seen []string
	for _, p := range fresh {
		switch {
		case !slices.Contains(old, p) && !slices.Contains(self, p):
			own = append(own, p)
		case h.GatesInTree && !judge.BuildOutput(p):
			seen = append(seen, p)
		default:
			outputs = append(outputs, p)
		}
	}
	if len(own) > 0 {
		bad = append(bad, "created files git ignores by rules the task wrote, which the commit would leave out: "+strings.Join(own, ", "))
	}
	if len(seen) > 0 {
		// The gates run where the files are (--clean-gates=false): they
		// could pass on what the commit leaves out.
		bad = append(bad, "created files git ignores, which the commit would leave out and the gates, run in the work tree (--clean-gates=false), would see: "+strings.Join(seen, ", "))
	}
	return bad, outputs, nil
}

// selfIgnored are those of dirs (new directories git ignores that no rule
// older than the task ignores) that the rules before the task and the
// directory's own .gitignore alone ignore whole, that .gitignore included:
// a tool's cache that says so of itself (pytest's .pytest_cache/ holds a
// .gitignore of "*"). Such a rule hides nothing outside its directory,
// and the directory is not the commit's: the gates judge the commit in a
// clean checkout, without it, so it is an output like those older rules
// ignore (and, with the gates in the work tree, seen as those are).
// Without the rules from before the task (a watch an older planx saved)
// there is none.
func (w Work) selfIgnored(ctx context.Context, before *IgnoreRules, dirs []string) ([]string, error) {
	if before == nil {
		return nil, nil
	}
	var out []string
	for _, d := range dirs {
		if !strings.HasSuffix(d, "/") {
			continue
		}
		own, err := os.ReadFile(w.path(d + ".gitignore"))
		if err != nil {
			continue
		}
		rules := *before
		rules.Files = maps.Clone(before.Files)
		if rules.Files == nil {
			rules.Files = map[string]string{}
		}
		rules.Files[d+".gitignore"] = string(own)
		ok, err := ignoredUnder(ctx, w.Repo, rules, []string{d})
		if err != nil {
			return nil, err
		}
		out = append(out, ok...)
	}
	return out, nil
}
