package records

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
)

// newRepo opens a new hermetic repository.
func newRepo(t *testing.T) (*gitops.Repo, string) {
	t.Helper()
	dir := gittest.Init(t)
	r, err := gitops.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return r, dir
}

func TestGateRecordsByTree(t *testing.T) {
	r, dir := newRepo(t)
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	sha := gitops.SHA(gittest.Commit(t, dir, "one"))
	tree, err := r.Objects().TreeOf(context.Background(), sha)
	if want := gittest.Git(t, dir, "rev-parse", "HEAD^{tree}"); err != nil || string(tree) != want {
		t.Fatalf("TreeOf = %s, %v; git says %s", tree, err, want)
	}
	if recs, err := Of(r).Gates(tree); err != nil || recs != nil {
		t.Fatalf("no records yet: %v, %v", recs, err)
	}
	pass := GateRecord{Tree: tree, Gate: "test", CommandHash: "sha256:x", Passed: true, Commit: sha, By: "run"}
	fail := GateRecord{Tree: tree, Gate: "lint", Passed: false, By: "verify"}
	if err := Of(r).AddGates(pass, fail); err != nil {
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
	recs, err := Of(r).Gates(tree)
	if err != nil || len(recs) != 2 || recs[0].Gate != "test" || !recs[0].Passed || recs[1].Gate != "lint" || recs[1].Passed {
		t.Fatalf("Gates = %+v, %v", recs, err)
	}
	if err := Of(r).AddGates(GateRecord{Tree: "../../etc", Gate: "x"}); err == nil {
		t.Error("a tree id that is a path was accepted")
	}
}

func TestMadeCommits(t *testing.T) {
	r, dir := newRepo(t)
	a := gitops.SHA(gittest.Commit(t, dir, "one"))
	b := gitops.SHA(gittest.Commit(t, dir, "two"))
	if rec, err := Of(r).Made("20260102-030405-abcdef"); err != nil || rec.Known || len(rec.Commits) != 0 {
		t.Fatalf("unknown run: %+v %v", rec, err)
	}
	for _, mc := range []MadeCommit{{Task: "T001", Commit: a}, {Task: "T002", Commit: a}, {Task: "T002", Commit: b},
		{Task: "T003", Parent: b, Pending: true}} {
		if err := Of(r).AddMade("20260102-030405-abcdef", mc); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := Of(r).Made("20260102-030405-abcdef")
	if err != nil || !rec.Known || rec.Commits["T001"].Commit != a || rec.Commits["T002"].Commit != b ||
		len(rec.Commits) != 2 || rec.Pending["T003"].Parent != b {
		t.Fatalf("Made = %+v %v", rec, err)
	}
}
