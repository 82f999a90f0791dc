package verify

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
)

// A person's edits made after a stop are theirs until they are shown to be
// the task's: a resume commits with the task only the edits that belong to
// it (Belongs), and leaves the others in the work tree, unstaged, out of
// the gates' tree and of every commit of the run, named. The rule is the
// same on every path a resume takes: the stopped task committed as it
// stands, the task run again, the tasks after it.

// HandEdits are the facts the rule reads, as literal paths.
type HandEdits struct {
	// Attempt are the paths the task's attempt changed: the stopped
	// attempt's on a resume of it, the new attempt's when the task ran
	// again. For a manual task the person is the executor: every edit of
	// theirs is the attempt's.
	Attempt []string
	// Declared are the task's declared files (Files:); a directory covers
	// what lies under it.
	Declared []planparse.File
	// Edited are the paths a person changed since the stop.
	Edited []string
	// Staged are those of Edited the person staged (git add): the
	// git-native way to say a file goes with the task.
	Staged []string
	// AtCommit: the stop was the task's commit (a commit hook refused it):
	// a commit hook judges the commit, so what a person changed after it is
	// the fix the commit needs.
	AtCommit bool
}

// Belongs splits e.Edited into the edits that go into the task's commit
// (own) and those that stay in the work tree (apart), each sorted. An edit
// belongs when the task's attempt changed the same path, when the task
// declares it, when the person staged it, or when the stop was the commit.
func Belongs(e HandEdits) (own, apart []string) {
	for _, p := range e.Edited {
		if e.AtCommit || underAny(p, e.Attempt) || AnyCovers(e.Declared, p) || slices.Contains(e.Staged, p) {
			own = append(own, p)
		} else {
			apart = append(apart, p)
		}
	}
	slices.Sort(own)
	slices.Sort(apart)
	return own, apart
}

// Hand is what a resume found of a person's edits after the stop, handed
// to the attempt that goes on in the user's work tree.
type Hand struct {
	// Edited are the paths a person changed since the stop (or that an
	// earlier task of this resume left apart), planx's own files aside.
	Edited []string
	// Staged are those of Edited the person had staged.
	Staged []string
	// Attempt are the paths the stopped attempt changed: a person's edit
	// of one is a fix of the task's work, whether that work is resumed as
	// it stands or the task runs again.
	Attempt []string
	// Resumed: the work in the tree is the stopped attempt's; else the
	// task ran again, and what it changed of Edited is told against At.
	Resumed bool
	// At is a commit of the work tree holding the person's edits as they
	// were found.
	At gitops.SHA
	// AtCommit: the stop was at the task's commit (HandEdits.AtCommit).
	AtCommit bool
	// Carried: the edits a task before this one of the resume left apart
	// (Left).
	Carried bool
	// When says when the person made the edits, for the warning: "" for
	// after the stop; "while wave 2 ran" for edits beside a wave's files,
	// which its landing left in the work tree, in a run not stopped.
	When string
}

// Any says whether there are edits to judge.
func (h Hand) Any() bool { return len(h.Edited) > 0 }

// Left is what is left of h for the next task, once apart stayed out of
// a task's commit: the same edits, found at the same tree.
func (h Hand) Left(apart []string) Hand {
	if len(apart) == 0 {
		return Hand{}
	}
	return Hand{Edited: apart, At: h.At, Carried: true}
}

// split applies the rule to t's work in the tree, changed the paths
// staged: for a task run again, the edits whose staged content differs
// from the tree they were found in are the new attempt's.
func (c Tree) split(ctx context.Context, t *planparse.Task, h Hand) (own, apart []string, err error) {
	// .planx.yaml holding a person's edit has its own rule (Unstaged).
	h.Edited = slices.DeleteFunc(slices.Clone(h.Edited), func(p string) bool { return slices.Contains(c.Unstaged, p) })
	attempt := h.Attempt
	if !h.Resumed && h.At != "" {
		cs, err := c.Repo.Index().StagedChanges(ctx, h.At)
		if err != nil {
			return nil, nil, fmt.Errorf("verify %s: what it changed of a person's edits: %w", t.ID, err)
		}
		for _, ch := range cs {
			if slices.Contains(h.Edited, ch.Path) {
				attempt = append(attempt, ch.Path)
			}
		}
	}
	own, apart = Belongs(HandEdits{Attempt: attempt, Declared: t.Files, Edited: h.Edited, Staged: h.Staged, AtCommit: h.AtCommit})
	// Said once, at the task the resume went on with: the tasks after it
	// leave the same edits apart, which the person knows by then.
	if len(apart) > 0 && !h.Carried {
		when, hint := "after the stop", " (not the task's: stage it with git add before resuming to include it)"
		if h.When != "" {
			when, hint = h.When, ""
		}
		c.warn(t.ID, fmt.Sprintf("changed by hand %s, not %s's (its attempt did not change them, it does not declare them, they were not staged): %s; left in the work tree, uncommitted, out of %s's gates and commit%s",
			when, t.ID, strings.Join(apart, ", "), t.ID, hint))
	}
	return own, apart, nil
}
