package gitops

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

func TestGateRecordsByTree(t *testing.T) {
	t.Parallel()
	r, dir := newRepo(t)
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	sha := SHA(gittest.Commit(t, dir, "one"))
	tree, err := r.Objects().TreeOf(context.Background(), sha)
	if want := gittest.Git(t, dir, "rev-parse", "HEAD^{tree}"); err != nil || string(tree) != want {
		t.Fatalf("TreeOf = %s, %v; git says %s", tree, err, want)
	}
	if recs, err := r.Records().Gates(tree); err != nil || recs != nil {
		t.Fatalf("no records yet: %v, %v", recs, err)
	}
	pass := GateRecord{Tree: tree, Gate: "test", CommandHash: "sha256:x", Passed: true, Commit: sha, By: "run"}
	fail := GateRecord{Tree: tree, Gate: "lint", Passed: false, By: "verify"}
	if err := r.Records().AddGates(pass, fail); err != nil {
		t.Fatal(err)
	}
	// A torn last line (a crash mid-append) and a line copied from another
	// tree's file are ignored.
	p := filepath.Join(r.CommonDir, "planx", "records", "trees", string(tree))
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"tree":"` + strings.Repeat("0", 40) + `","gate":"test","passed":true}` + "\n" + `{"tree":"` + string(tree))
	f.Close()
	recs, err := r.Records().Gates(tree)
	if err != nil || len(recs) != 2 || recs[0].Gate != "test" || !recs[0].Passed || recs[1].Gate != "lint" || recs[1].Passed {
		t.Fatalf("Gates = %+v, %v", recs, err)
	}
	if err := r.Records().AddGates(GateRecord{Tree: "../../etc", Gate: "x"}); err == nil {
		t.Error("a tree id that is a path was accepted")
	}
}

func TestMadeCommits(t *testing.T) {
	t.Parallel()
	r, dir := newRepo(t)
	a := SHA(gittest.Commit(t, dir, "one"))
	b := SHA(gittest.Commit(t, dir, "two"))
	if rec, err := r.Records().Made("20260102-030405-abcdef"); err != nil || rec.Known || len(rec.Commits) != 0 {
		t.Fatalf("unknown run: %+v %v", rec, err)
	}
	for _, mc := range []MadeCommit{{Task: "T001", Commit: a}, {Task: "T002", Commit: a}, {Task: "T002", Commit: b},
		{Task: "T003", Parent: b, Pending: true}} {
		if err := r.Records().AddMade("20260102-030405-abcdef", mc); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := r.Records().Made("20260102-030405-abcdef")
	if err != nil || !rec.Known || rec.Commits["T001"].Commit != a || rec.Commits["T002"].Commit != b ||
		len(rec.Commits) != 2 || rec.Pending["T003"].Parent != b {
		t.Fatalf("Made = %+v %v", rec, err)
	}
}

// Notes reads in one batch what git notes show reads one by one.
func TestNotesBatch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	a := SHA(gittest.Commit(t, dir, "one"))
	b := SHA(gittest.Commit(t, dir, "two"))
	c := SHA(gittest.Commit(t, dir, "three"))
	if got, err := r.Notes().ShowAll(ctx, "refs/notes/planx", []SHA{a, b}); err != nil || len(got) != 0 {
		t.Fatalf("no notes ref: %v %v", got, err)
	}
	gittest.Git(t, dir, "notes", "--ref=planx", "add", "-m", "note of a\nsecond line", string(a))
	gittest.Git(t, dir, "notes", "--ref=planx", "add", "-m", "", "--allow-empty", string(c))
	got, err := r.Notes().ShowAll(ctx, "refs/notes/planx", []SHA{a, b, c})
	if err != nil || len(got) != 2 {
		t.Fatalf("Notes = %q, %v", got, err)
	}
	for _, s := range []SHA{a, c} {
		want := gittest.Git(t, dir, "notes", "--ref=planx", "show", string(s))
		if strings.TrimRight(string(got[s]), "\n") != want {
			t.Errorf("note of %s = %q, git says %q", s.Short(), got[s], want)
		}
	}
}

// TreeWithout matches the tree git writes after removing the paths.
func TestTreeWithout(t *testing.T) {
	t.Parallel()
	r, dir := newRepo(t)
	gittest.WriteFile(t, dir, "plan.md", "p\n")
	gittest.WriteFile(t, dir, "memory-bank/execute/log.md", "l\n")
	gittest.WriteFile(t, dir, "memory-bank/keep.md", "k\n")
	gittest.WriteFile(t, dir, "src/a.go", "a\n")
	sha := gittest.Commit(t, dir, "one")
	got, err := r.Objects().TreeWithout(SHA(gittest.Git(t, dir, "rev-parse", sha+"^{tree}")), "plan.md", "memory-bank/execute/log.md", "absent.txt")
	if err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "rm", "-q", "--cached", "plan.md", "memory-bank/execute/log.md")
	if want := gittest.Git(t, dir, "write-tree"); got != SHA(want) {
		t.Fatalf("TreeWithout = %s, git write-tree after git rm --cached = %s", got, want)
	}
	other, err := r.Objects().TreeWithout(SHA(gittest.Git(t, dir, "rev-parse", sha+"^{tree}")), "plan.md")
	if err != nil || other == got {
		t.Errorf("different paths removed, same key: %s %v", other, err)
	}
	gittest.Git(t, dir, "reset", "-q")
	gittest.WriteFile(t, dir, "memory-bank/execute/log.md", "a different log\n")
	gittest.WriteFile(t, dir, "plan.md", "ticked\n")
	gittest.Git(t, dir, "add", "-A")
	again, err := r.Objects().TreeWithout(SHA(gittest.Git(t, dir, "write-tree")), "plan.md", "memory-bank/execute/log.md")
	if err != nil || again != got {
		t.Errorf("same work, other plan and log: key %s, want %s (%v)", again, got, err)
	}
}

// Unpushed is what git rev-list --first-parent HEAD --not --remotes lists.
func TestUnpushed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	gittest.Commit(t, dir, "one")
	remote := t.TempDir()
	gittest.Git(t, remote, "init", "-q", "--bare")
	gittest.Git(t, dir, "remote", "add", "origin", remote)
	gittest.Git(t, dir, "push", "-q", "origin", "HEAD:refs/heads/main")
	gittest.Git(t, dir, "fetch", "-q", "origin")
	gittest.Commit(t, dir, "two")
	gittest.Commit(t, dir, "three")
	head := SHA(gittest.Git(t, dir, "rev-parse", "HEAD"))
	cs, err := r.History().Unpushed(ctx, head)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, string(c.SHA))
	}
	want := strings.Fields(gittest.Git(t, dir, "rev-list", "--first-parent", "HEAD", "--not", "--remotes"))
	if !slices.Equal(got, want) || len(got) != 2 {
		t.Errorf("Unpushed = %v, git says %v", got, want)
	}
	if has, err := r.History().HasRemoteRefs(ctx); err != nil || !has {
		t.Errorf("HasRemoteRefs = %v, %v", has, err)
	}
}

// The guard sees planx's notes and refs move, loose or packed, and not
// other refs.
func TestGuardPlanxRefs(t *testing.T) {
	t.Parallel()
	r, dir := newRepo(t)
	sha := gittest.Commit(t, dir, "one")
	g := r.Config().Guard("x")
	gittest.Git(t, dir, "update-ref", "refs/heads/other", sha)
	gittest.Git(t, dir, "notes", "--ref=commits", "add", "-m", "not planx's", sha)
	if ch := g.Changed(r.Config().Guard("x")); len(ch) != 0 {
		t.Fatalf("unrelated refs moved the guard: %v", ch)
	}
	gittest.Git(t, dir, "notes", "--ref=planx", "add", "-m", "forged", sha)
	if ch := g.Changed(r.Config().Guard("x")); !slices.Contains(ch, ".git/refs/notes/planx") {
		t.Errorf("notes move: %v", ch)
	}
	g = r.Config().Guard("x")
	gittest.Git(t, dir, "update-ref", "refs/planx/runs/x/base", sha)
	if ch := g.Changed(r.Config().Guard("x")); len(ch) == 0 {
		t.Error("a new refs/planx ref went unseen")
	}
	gittest.Git(t, dir, "pack-refs", "--all")
	g = r.Config().Guard("x")
	gittest.Git(t, dir, "update-ref", "refs/planx/runs/x/base", gittest.Commit(t, dir, "two"))
	if ch := g.Changed(r.Config().Guard("x")); len(ch) == 0 {
		t.Error("a packed refs/planx ref moved unseen")
	}
}

// The guard of a run leaves other runs' refs out (another work tree's run
// writes them meanwhile) and takes git packing the refs for no move.
func TestGuardOtherRuns(t *testing.T) {
	t.Parallel()
	r, dir := newRepo(t)
	sha := gittest.Commit(t, dir, "one")
	gittest.Git(t, dir, "update-ref", "refs/planx/runs/x/base", sha)
	g := r.Config().Guard("x")
	gittest.Git(t, dir, "update-ref", "refs/planx/runs/y/base", sha)
	gittest.Git(t, dir, "update-ref", "refs/planx/runs/y/stops/1-T001", sha)
	gittest.Git(t, dir, "pack-refs", "--all")
	if ch := g.Changed(r.Config().Guard("x")); len(ch) != 0 {
		t.Fatalf("another run's refs, or packing, moved the guard: %v", ch)
	}
	gittest.Git(t, dir, "update-ref", "refs/planx/runs/x/base", gittest.Commit(t, dir, "two"))
	if ch := g.Changed(r.Config().Guard("x")); !slices.Equal(ch, []string{".git/refs/planx/runs/x/base"}) {
		t.Errorf("the run's own ref moved: %v", ch)
	}
	if ch := g.Changed(r.Config().Guard("y")); len(ch) == 0 {
		t.Error("run y's guard saw nothing")
	}
}

// Added tells notes added from notes changed or removed.
func TestNotesAdded(t *testing.T) {
	t.Parallel()
	r, dir := newRepo(t)
	ctx := context.Background()
	a := gittest.Commit(t, dir, "a")
	b := gittest.Commit(t, dir, "b")
	gittest.Git(t, dir, "notes", "--ref=planx", "add", "-m", "a", a)
	n1 := SHA(gittest.Git(t, dir, "rev-parse", "refs/notes/planx"))
	if added, other, err := r.Notes().Added(ctx, "", n1); err != nil || other || !slices.Equal(added, []SHA{SHA(a)}) {
		t.Errorf("from nothing: %v %v %v", added, other, err)
	}
	gittest.Git(t, dir, "notes", "--ref=planx", "add", "-m", "b", b)
	n2 := SHA(gittest.Git(t, dir, "rev-parse", "refs/notes/planx"))
	if added, other, err := r.Notes().Added(ctx, n1, n2); err != nil || other || !slices.Equal(added, []SHA{SHA(b)}) {
		t.Errorf("one added: %v %v %v", added, other, err)
	}
	gittest.Git(t, dir, "notes", "--ref=planx", "add", "-f", "-m", "forged", a)
	n3 := SHA(gittest.Git(t, dir, "rev-parse", "refs/notes/planx"))
	if _, other, err := r.Notes().Added(ctx, n2, n3); err != nil || !other {
		t.Errorf("a changed note went unseen: %v %v", other, err)
	}
}
