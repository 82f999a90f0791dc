package wave

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/outcome"
)

// workOn commits files on base, as a task's work in its work tree, and
// returns the commit; the repository is left at base.
func workOn(t *testing.T, dir string, base gitops.SHA, files map[string]string) gitops.SHA {
	t.Helper()
	gittest.Git(t, dir, "checkout", "-q", "--detach", string(base))
	for name, content := range files {
		gittest.WriteFile(t, dir, name, content)
	}
	c := gitops.SHA(gittest.Commit(t, dir, "work"))
	gittest.Git(t, dir, "checkout", "-q", "--detach", string(base))
	return c
}

// chainRepo makes a base and four tasks' work on it: T001 and T002 apart,
// T003 against T001 in a.txt, T004 apart again.
func chainRepo(t *testing.T) (*gitops.Repo, gitops.SHA, []Work) {
	t.Helper()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	base := gitops.SHA(gittest.Commit(t, dir, "base"))
	works := []Work{
		{ID: "T001", Commit: workOn(t, dir, base, map[string]string{"a.txt": "one\n"})},
		{ID: "T002", Commit: workOn(t, dir, base, map[string]string{"b.txt": "two\n"})},
		{ID: "T003", Commit: workOn(t, dir, base, map[string]string{"a.txt": "three\n"})},
		{ID: "T004", Commit: workOn(t, dir, base, map[string]string{"d.txt": "four\n"})},
	}
	repo, err := gitops.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return repo, base, works
}

// stager makes each task's commit with its id as message and records the
// calls.
type stager struct {
	repo    *gitops.Repo
	refuse  map[int]error
	staged  []int
	parents []gitops.SHA
	commits []gitops.SHA
	final   []bool
}

func (s *stager) stage(ctx context.Context, i int, merged, parent gitops.SHA, final bool) (gitops.SHA, error) {
	if err := s.refuse[i]; err != nil {
		return "", err
	}
	c, err := s.repo.Objects().CommitTree(ctx, merged, "task\n", parent, false)
	if err != nil {
		return "", err
	}
	s.staged, s.parents, s.commits, s.final = append(s.staged, i), append(s.parents, parent), append(s.commits, c), append(s.final, final)
	return c, nil
}

func TestChain(t *testing.T) {
	t.Parallel()
	repo, base, works := chainRepo(t)
	ctx := context.Background()
	s := &stager{repo: repo}
	fails, at, err := Chain(ctx, repo, base, works, true, s.stage)
	if err != nil || at != -1 {
		t.Fatalf("Chain = %d, %v", at, err)
	}
	if want := []int{0, 1, 3}; !slices.Equal(s.staged, want) {
		t.Errorf("staged %v, want %v", s.staged, want)
	}
	// Each commit on the one before, the first on the base.
	if want := []gitops.SHA{base, s.commits[0], s.commits[1]}; !slices.Equal(s.parents, want) {
		t.Errorf("parents %v, want %v", s.parents, want)
	}
	// A task of the wave failed: no commit is the run's last.
	for i, f := range s.final {
		if f {
			t.Errorf("commit %d staged as final with a task failed", i)
		}
	}
	if fails[0] != nil || fails[1] != nil || fails[3] != nil {
		t.Errorf("fails %v, want only T003's", fails)
	}
	if f := fails[2]; f == nil || f.What != "its changes conflict with the tasks integrated before it (T001, T002) in: a.txt" {
		t.Errorf("T003's failure: %v", f)
	}
	for name, want := range map[string]string{"a.txt": "one\n", "b.txt": "two\n", "d.txt": "four\n"} {
		b, err := repo.History().ShowFile(ctx, s.commits[2], name)
		if err != nil || string(b) != want {
			t.Errorf("%s at the chain's tip: %q, %v; want %q", name, b, err, want)
		}
	}
}

func TestChainFinal(t *testing.T) {
	t.Parallel()
	repo, base, works := chainRepo(t)
	works = works[:2]
	for _, last := range []bool{true, false} {
		s := &stager{repo: repo}
		if _, _, err := Chain(context.Background(), repo, base, works, last, s.stage); err != nil {
			t.Fatal(err)
		}
		if want := []bool{false, last}; len(s.final) != 2 || s.final[0] != want[0] || s.final[1] != want[1] {
			t.Errorf("last wave %v: final %v, want %v", last, s.final, want)
		}
	}
	// A task failed in its work tree: nothing of the wave is final.
	works[0].Failed = true
	s := &stager{repo: repo}
	if _, _, err := Chain(context.Background(), repo, base, works, true, s.stage); err != nil {
		t.Fatal(err)
	}
	if len(s.final) != 1 || s.final[0] || s.parents[0] != base {
		t.Errorf("with T001 failed: staged %v final %v parents %v", s.staged, s.final, s.parents)
	}
}

func TestChainRefusedAndStopped(t *testing.T) {
	t.Parallel()
	repo, base, works := chainRepo(t)
	ctx := context.Background()
	hook := &outcome.Failure{What: "the commit-msg hook refused the commit"}
	s := &stager{repo: repo, refuse: map[int]error{0: hook}}
	fails, _, err := Chain(ctx, repo, base, works, false, s.stage)
	if err != nil {
		t.Fatal(err)
	}
	// T001 refused: T003, which conflicted with it, now goes in.
	if fails[0] != hook || fails[2] != nil {
		t.Errorf("fails %v, want T001's refusal alone", fails)
	}
	if want := []int{1, 2, 3}; !slices.Equal(s.staged, want) {
		t.Errorf("staged %v, want %v", s.staged, want)
	}
	boom := errors.New("disk full")
	s = &stager{repo: repo, refuse: map[int]error{1: boom}}
	_, at, err := Chain(ctx, repo, base, works, false, s.stage)
	if !errors.Is(err, boom) || at != 1 || len(s.staged) != 1 {
		t.Errorf("Chain = %d, %v after staging %v; want a stop at 1", at, err, s.staged)
	}
	works[1].Commit = "0000000000000000000000000000000000000000"
	if _, at, err := Chain(ctx, repo, base, works, false, (&stager{repo: repo}).stage); err == nil || at != 1 {
		t.Errorf("a merge of a missing commit: %d, %v", at, err)
	}
}

// TestChainOnMovedBranch: a wave landed on a branch a person committed to
// while it ran (a resume lands it on their commit); the first task
// conflicting with that commit is said to conflict with the branch, not
// with an empty list of tasks.
func TestChainOnMovedBranch(t *testing.T) {
	t.Parallel()
	repo, base, works := chainRepo(t)
	ctx := context.Background()
	mine := workOn(t, repo.Root, base, map[string]string{"a.txt": "the person's\n"})
	s := &stager{repo: repo}
	fails, at, err := Chain(ctx, repo, mine, works[:2], false, s.stage)
	if err != nil || at != -1 {
		t.Fatalf("Chain = %d, %v", at, err)
	}
	if f := fails[0]; f == nil || f.What != "its changes conflict with the branch's commits made after its work tree was in: a.txt" {
		t.Errorf("T001's failure: %v", f)
	}
	if fails[1] != nil || !slices.Equal(s.staged, []int{1}) {
		t.Errorf("fails %v, staged %v; want T002 staged", fails, s.staged)
	}
}
