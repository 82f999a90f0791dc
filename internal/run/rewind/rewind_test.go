package rewind

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/runstate"
)

// repoAt makes a repository with one commit of a.txt, b.txt and c.txt and
// opens it.
func repoAt(t *testing.T) (repo *gitops.Repo, dir string, one gitops.SHA) {
	t.Helper()
	dir = gittest.Init(t)
	for _, f := range []string{"a", "b", "c"} {
		gittest.WriteFile(t, dir, f+".txt", f+"\n")
	}
	one = gitops.SHA(gittest.Commit(t, dir, "one"))
	repo, err := gitops.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return repo, dir, one
}

// read is the content of dir/name, "" when it is missing.
func read(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

// startRun records what a run's start records of the work in progress (the
// index, the assume-unchanged files' bytes) and makes its rollback commit
// of everything, as the executor's rollback does.
func startRun(t *testing.T, repo *gitops.Repo, one gitops.SHA, marks runstate.IndexMarks) *runstate.State {
	t.Helper()
	ctx := context.Background()
	st := &runstate.State{RunID: "r1", Branch: "main", OrigHead: one, OrigMarks: &marks}
	var err error
	if st.OrigIndex, err = repo.Index().Save(ctx, "planx: index before run r1\n", one); err != nil {
		t.Fatal(err)
	}
	if st.OrigHidden, err = repo.Commits().SnapshotAll(ctx, "planx: assume-unchanged files\n", one, marks.AssumeUnchanged...); err != nil {
		t.Fatal(err)
	}
	if err := repo.Index().StageAll(ctx); err != nil {
		t.Fatal(err)
	}
	msg := "planx: rollback\n\n" + record.TrailerRun + ": r1\n" + record.TrailerRollback + ": true\n"
	if st.Base, err = repo.Commits().CommitIndex(ctx, msg, one, "HEAD"); err != nil {
		t.Fatal(err)
	}
	return st
}

func TestRunPutsBackThePreRunState(t *testing.T) {
	t.Parallel()
	repo, dir, one := repoAt(t)
	ctx := context.Background()
	// Before the run: a.txt staged, then changed again apart from the
	// index; b.txt changed, not staged; new.txt untracked; c.txt flagged
	// assume-unchanged with bytes of its own.
	gittest.WriteFile(t, dir, "a.txt", "a staged\n")
	gittest.Git(t, dir, "add", "a.txt")
	gittest.WriteFile(t, dir, "a.txt", "a unstaged\n")
	gittest.WriteFile(t, dir, "b.txt", "b unstaged\n")
	gittest.WriteFile(t, dir, "new.txt", "new\n")
	gittest.Git(t, dir, "update-index", "--assume-unchanged", "c.txt")
	gittest.WriteFile(t, dir, "c.txt", "c hidden\n")
	st := startRun(t, repo, one, runstate.IndexMarks{AssumeUnchanged: []string{"c.txt"}})

	// The run: a task commit, then a half-done task's files.
	gittest.WriteFile(t, dir, "a.txt", "task\n")
	task := gitops.SHA(gittest.Commit(t, dir, "task T001\n\n"+record.TrailerRun+": r1\n"))
	gittest.WriteFile(t, dir, "half.txt", "half\n")
	gittest.WriteFile(t, dir, "b.txt", "b by the task\n")

	head, err := repo.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(ctx, Options{Repo: repo, State: st, Head: head})
	if err != nil {
		t.Fatal(err)
	}
	if got := gitops.SHA(gittest.Git(t, dir, "rev-parse", "HEAD")); got != one {
		t.Errorf("HEAD at %s, want the original %s", got, one)
	}
	if got := gittest.Git(t, dir, "show", ":a.txt"); got != "a staged" {
		t.Errorf("a.txt staged as %q, want %q", got, "a staged")
	}
	for name, want := range map[string]string{"a.txt": "a unstaged\n", "b.txt": "b unstaged\n", "new.txt": "new\n", "c.txt": "c hidden\n", "half.txt": ""} {
		if got := read(t, dir, name); got != want {
			t.Errorf("%s holds %q, want %q", name, got, want)
		}
	}
	if got := gittest.Git(t, dir, "diff", "--cached", "--name-only"); got != "a.txt" {
		t.Errorf("staged %q, want only a.txt", got)
	}
	if got := gittest.Git(t, dir, "ls-files", "-v", "c.txt"); !strings.HasPrefix(got, "h ") {
		t.Errorf("c.txt lost its assume-unchanged flag: %q", got)
	}
	if got := gittest.Git(t, dir, "status", "--porcelain", "--", "new.txt"); got != "?? new.txt" {
		t.Errorf("new.txt status %q, want untracked", got)
	}
	// What the abort took out is kept.
	if res.HeadRef != record.HeadRef("r1") || gitops.SHA(gittest.Git(t, dir, "rev-parse", res.HeadRef)) != task {
		t.Errorf("the run's commits kept at %q, want %s at %s", res.HeadRef, task, record.HeadRef("r1"))
	}
	if res.WorkRef != record.AbortedRef("r1") {
		t.Fatalf("work tree kept at %q, want %s", res.WorkRef, record.AbortedRef("r1"))
	}
	if got := gittest.Git(t, dir, "show", res.WorkRef+":half.txt"); got != "half" {
		t.Errorf("half.txt kept as %q", got)
	}
	if len(res.Later) != 0 || res.Restored != one || res.RunID != "r1" {
		t.Errorf("result %+v", res)
	}
}

func TestRunNamesTheEditsSinceTheStop(t *testing.T) {
	t.Parallel()
	repo, dir, one := repoAt(t)
	ctx := context.Background()
	st := startRun(t, repo, one, runstate.IndexMarks{})
	st.PlanPath = "plan.md"
	gittest.WriteFile(t, dir, "a.txt", "task\n")
	gittest.WriteFile(t, dir, "plan.md", "- [x] T001\n")
	task := gitops.SHA(gittest.Commit(t, dir, "task T001\n\n"+record.TrailerRun+": r1\n"))
	// A person's commit after the stop, and their edits.
	gittest.WriteFile(t, dir, "b.txt", "theirs\n")
	later := gitops.SHA(gittest.Commit(t, dir, "theirs"))
	gittest.WriteFile(t, dir, "c.txt", "edited\n")
	gittest.WriteFile(t, dir, "plan.md", "- [ ] T001\n")
	gittest.WriteFile(t, dir, ".planx.yaml", "gates: []\n")
	head, err := repo.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	treeOf := func(sha gitops.SHA) gitops.SHA {
		tree, err := repo.Objects().TreeOf(ctx, sha)
		if err != nil {
			t.Fatal(err)
		}
		return tree
	}
	res, err := Run(ctx, Options{Repo: repo, State: st, Head: head, StopTree: treeOf(later), KeepConfig: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Edited, []string{"c.txt"}) {
		t.Errorf("edited %q, want c.txt alone (not the plan, not the kept .planx.yaml)", res.Edited)
	}
	if len(res.Later) != 1 || res.Later[0].SHA != later {
		t.Errorf("later commits %v, want %s alone", res.Later, later)
	}
	if gitops.SHA(gittest.Git(t, dir, "rev-parse", res.HeadRef+"~1")) != task {
		t.Errorf("%s does not keep the task commit below the later one", res.HeadRef)
	}
}

func TestRollbackAt(t *testing.T) {
	t.Parallel()
	repo, dir, one := repoAt(t)
	ctx := context.Background()
	st := startRun(t, repo, one, runstate.IndexMarks{})
	u := &rewind{repo: repo, st: st}
	if got := u.rollbackAt(ctx, gitops.Head{SHA: st.Base}); got != st.Base {
		t.Errorf("rollbackAt(the rollback commit) = %q, want %s", got, st.Base)
	}
	if got := u.rollbackAt(ctx, gitops.Head{SHA: one}); got != "" {
		t.Errorf("rollbackAt(the original HEAD) = %q", got)
	}
	task := gitops.SHA(gittest.Commit(t, dir, "task\n\n"+record.TrailerRun+": r1\n"))
	if ok, err := IsRollbackOf(ctx, repo, task, "r1"); ok || err != nil {
		t.Errorf("IsRollbackOf(a task commit) = %v, %v", ok, err)
	}
	if ok, err := IsRollbackOf(ctx, repo, st.Base, "r2"); ok || err != nil {
		t.Errorf("IsRollbackOf(another run's id) = %v, %v", ok, err)
	}
}
