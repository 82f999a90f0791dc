package executor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gaterun"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// Ignored files are in no commit, not even the rollback commit: a task that
// deletes them (git clean -fdx) or stashes them (git stash -a) would take
// bytes nothing else holds. The run copies the user's own (local.env,
// data/: not build outputs, caches or installed dependencies, which a build
// makes again) into the git directory when it starts, up to keep_ignored:
// bytes, and after each task's executor and gates puts back any it
// deleted, saying so; it names the other ignored entries a task made
// disappear. The copies are plain files, never objects: a secret in
// local.env must not reach a commit, a ref or a push. They go when the run
// ends (endRun).

// defaultKeepIgnored is keep_ignored's default: what a run keeps of the
// ignored files it starts with, at most.
const defaultKeepIgnored = 32 << 20

// keptDir is where the run in repo's work tree keeps its ignored files.
func keptDir(repo *gitops.Repo) string { return filepath.Join(repo.PlanxDir(), "ignored") }

// keepIgnored keeps the user's ignored files as the run starts (see above).
func (r *runner) keepIgnored() {
	limit := r.cfg.KeepIgnored
	switch {
	case limit < 0:
		return
	case limit == 0:
		limit = defaultKeepIgnored
	}
	dst := keptDir(r.repo)
	_ = os.RemoveAll(dst) // an earlier run's, which a crash left
	paths, left := keepable(r.repo.Root, r.ignored, limit)
	for _, p := range paths {
		if err := copyFile(relJoin(r.repo.Root, p), relJoin(dst, p)); err != nil {
			left = append(left, p)
		}
	}
	if len(left) > 0 {
		msg := fmt.Sprintf("%d ignored file(s) are not kept (over keep_ignored: %d bytes, or unreadable), and a task that deletes them loses them: %s",
			len(left), limit, textsafe.List(left))
		r.log.Issues = append(r.log.Issues, r.issue("", msg))
		r.out.Warn("", msg)
	}
}

// putBackIgnored copies back the kept files the work tree no longer has
// (nothing at their path; a file where one of their directories was is
// the task's, left alone) and returns their paths.
func (r *runner) putBackIgnored() ([]string, error) {
	src := keptDir(r.repo)
	var back []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(src, p)
		dst := relJoin(r.repo.Root, filepath.ToSlash(rel))
		if _, err := os.Lstat(dst); !errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err := copyFile(p, dst); err != nil {
			return err
		}
		back = append(back, filepath.ToSlash(rel))
		return nil
	})
	return back, err
}

// copyFile copies the regular file src to dst with its permissions, making
// dst's directories.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// keepable lists the regular files under the ignored entries of root that
// are the user's own data (not buildOutput, not a dependency environment),
// in path order while their sizes add up to at most limit, and those left
// over.
func keepable(root string, entries []string, limit int64) (keep, left []string) {
	skip := gaterun.DepEnvs(root, entries)
	var total int64
	for _, e := range entries {
		if buildOutput(e) || slices.Contains(skip, e) {
			continue
		}
		base := relJoin(root, strings.TrimSuffix(e, "/"))
		_ = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if d.Name() == ".git" || (p != base && buildOutput(rel+"/")) {
					return filepath.SkipDir
				}
				return nil
			}
			fi, err := d.Info()
			if err != nil || !fi.Mode().IsRegular() || buildOutput(rel) {
				return nil
			}
			if total+fi.Size() > limit {
				left = append(left, rel)
				return nil
			}
			total += fi.Size()
			keep = append(keep, rel)
			return nil
		})
	}
	return keep, left
}

// noteIgnored records the ignored entries that exist now, as the
// preflight's survey saw them when it is still current.
func (r *runner) noteIgnored(ctx context.Context) {
	if r.survey != nil {
		r.ignored = r.survey.Ignored
		return
	}
	ps, err := r.repo.Index().IgnoredEntries(ctx)
	if err == nil {
		r.ignored = ps
	}
}

// checkIgnored puts back the kept ignored files the task deleted, and
// warns about them and the other ignored entries it made disappear.
func (r *runner) checkIgnored(t *planparse.Task) {
	if back, err := r.putBackIgnored(); len(back) > 0 || err != nil {
		msg := fmt.Sprintf("the task deleted %d ignored file(s) that no commit holds; planx put them back from its copy: %s",
			len(back), textsafe.List(back))
		if err != nil {
			msg += fmt.Sprintf(" (not all: %v; the copies are in %s)", err, keptDir(r.repo))
		}
		r.warnIssue(t, msg)
	}
	var gone []string
	for _, p := range r.ignored {
		if _, err := os.Lstat(relJoin(r.repo.Root, strings.TrimSuffix(p, "/"))); errors.Is(err, fs.ErrNotExist) {
			gone = append(gone, p)
		}
	}
	if len(gone) == 0 {
		return
	}
	r.ignored = slices.DeleteFunc(r.ignored, func(p string) bool { return slices.Contains(gone, p) })
	msg := fmt.Sprintf("the task removed %d ignored path(s) that no commit holds (git clean -x? git stash -a? `git stash list` may have them): %s",
		len(gone), textsafe.List(gone))
	r.log.Issues = append(r.log.Issues, r.issue(t.ID, msg))
	r.out.Warn(t.ID, msg)
}

// An agent that builds and tests leaves files the repository's ignore rules
// ignore (bin/, .coverage, __pycache__/, dist/): outputs, not hidden work.
// Work is hidden when only a rule the task itself wrote (a new .gitignore
// line, a new .gitignore) ignores it; the commit must also stand without
// the outputs, so the gates judge it in a clean checkout (cleangates.go).

// newIgnored returns what the agent hid behind ignore rules of its own, as
// the failure's clauses, and notes its outputs on the turn: the ignored
// entries that were not there before it ran, split by whether the rules in
// force before it ignore them.
func (tu *turn) newIgnored(ctx context.Context) ([]string, error) {
	r, w := tu.r, tu.watch
	now, err := r.repo.Index().IgnoredFiles(ctx)
	if err != nil {
		return nil, err
	}
	fresh := minus(now, w.Ignored)
	tu.outputs = nil
	if len(fresh) == 0 {
		return nil, nil
	}
	var old []string
	if w.Rules != nil {
		if old, err = r.repo.Index().IgnoredUnder(ctx, *w.Rules, fresh); err != nil {
			return nil, err
		}
	} else {
		// A watch an older planx saved, without the rules: what tools are
		// known to make counts as output.
		old = slices.DeleteFunc(slices.Clone(fresh), func(p string) bool { return !buildOutput(p) })
	}
	var own, seen []string
	for _, p := range fresh {
		switch {
		case !slices.Contains(old, p):
			own = append(own, p)
		case r.o.GatesIn == GatesTree && !buildOutput(p):
			seen = append(seen, p)
		default:
			tu.outputs = append(tu.outputs, p)
		}
	}
	var bad []string
	if len(own) > 0 {
		bad = append(bad, "created files git ignores by rules the task wrote, which the commit would leave out: "+strings.Join(own, ", "))
	}
	if len(seen) > 0 {
		// The gates run where the files are (--clean-gates=false): they
		// could pass on what the commit leaves out.
		bad = append(bad, "created files git ignores, which the commit would leave out and the gates, run in the work tree (--clean-gates=false), would see: "+strings.Join(seen, ", "))
	}
	return bad, nil
}
