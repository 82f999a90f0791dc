package wave

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
)

// retractRepo makes a base commit and, on it, the commit a landing moves
// to (a file changed, one deleted, two added in a new directory, one made
// executable), leaves HEAD at base with a person's work around (a change
// and a staged file outside the landing, an ignored file), and returns
// the two commits.
func retractRepo(t *testing.T) (*gitops.Repo, string, gitops.SHA, gitops.SHA) {
	dir := gittest.Init(t)
	r, err := gitops.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	gittest.WriteFile(t, dir, ".gitignore", "*.local\n")
	gittest.WriteFile(t, dir, "keep.txt", "committed\n")
	gittest.WriteFile(t, dir, "change.txt", "old\n")
	gittest.WriteFile(t, dir, "gone.txt", "to be deleted\n")
	gittest.WriteFile(t, dir, "run.sh", "echo hi\n")
	base := gitops.SHA(gittest.Commit(t, dir, "base"))
	gittest.WriteFile(t, dir, "change.txt", "new\n")
	gittest.Git(t, dir, "rm", "-q", "gone.txt")
	gittest.WriteFile(t, dir, "add/x.txt", "x\n")
	gittest.WriteFile(t, dir, "add/y.txt", "y\n")
	gittest.WriteFileMode(t, dir, "run.sh", "echo hi\n", 0o755)
	gittest.Git(t, dir, "add", "-A")
	next := gitops.SHA(gittest.Commit(t, dir, "landing"))
	gittest.Git(t, dir, "reset", "-q", "--hard", string(base))
	gittest.WriteFile(t, dir, "keep.txt", "the person's change\n")
	gittest.WriteFile(t, dir, "staged.txt", "staged\n")
	gittest.Git(t, dir, "add", "staged.txt")
	gittest.WriteFile(t, dir, "data.local", "ignored\n")
	return r, dir, base, next
}

// treeState is what a landing taken back must leave as it was: the index,
// status and every file's bytes and mode.
func treeState(t *testing.T, dir string) string {
	var b strings.Builder
	b.WriteString(gittest.Git(t, dir, "ls-files", "-s") + "\n")
	b.WriteString(gittest.Git(t, dir, "status", "--porcelain", "--ignored") + "\n")
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.Name() == ".git" {
			return filepath.SkipDir
		}
		if fi, err := d.Info(); err == nil && fi.Mode().IsRegular() {
			content, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			b.WriteString(rel + " " + fi.Mode().String() + " " + string(content))
		}
		return nil
	})
	return b.String()
}

// A landing whose git finished (index and work tree at the new commit) and
// whose branch never moved is taken back to the state before it began.
func TestRetractAfterReadTree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir, base, next := retractRepo(t)
	before := treeState(t, dir)
	if err := r.Landing().Tree(ctx, base, next); err != nil {
		t.Fatal(err)
	}
	back, err := retract(ctx, r, next)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"add/x.txt", "add/y.txt", "change.txt", "gone.txt", "run.sh"}; !reflect.DeepEqual(back, want) {
		t.Errorf("put back %v, want %v", back, want)
	}
	if got := treeState(t, dir); got != before {
		t.Fatalf("after the landing was taken back:\n%s\nwant the state before it:\n%s", got, before)
	}
	if _, err := os.Stat(filepath.Join(dir, "add")); !os.IsNotExist(err) {
		t.Errorf("the landing's new directory is left: %v", err)
	}
	// The landing can be made again, whole.
	if err := r.Landing().Advance(ctx, base, next, "again"); err != nil {
		t.Fatal(err)
	}
	if got := gittest.Git(t, dir, "status", "--porcelain"); got != " M keep.txt\nA  staged.txt" {
		t.Errorf("status after the landing made again: %q", got)
	}
	gittest.Git(t, dir, "fsck", "--strict", "--no-progress")
}

// A git cut midway (some files written, the index not yet) leaves files a
// plain read-tree refuses to write over; they are put back, a person's
// file in the landing's way is left, and nothing else is touched.
func TestRetractMidway(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir, base, next := retractRepo(t)
	before := treeState(t, dir)
	gittest.WriteFile(t, dir, "change.txt", "new\n")
	gittest.WriteFile(t, dir, "add/x.txt", "x\n")
	if err := os.Remove(filepath.Join(dir, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	gittest.WriteFile(t, dir, "add/y.txt", "the person's own y\n")
	if err := r.Landing().Tree(ctx, base, next); err == nil {
		t.Fatal("git wrote over the cut landing's files: the test shows nothing")
	}
	back, err := retract(ctx, r, next)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"add/x.txt", "change.txt", "gone.txt"}; !reflect.DeepEqual(back, want) {
		t.Errorf("put back %v, want %v", back, want)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "add", "y.txt")); err != nil || string(b) != "the person's own y\n" {
		t.Fatalf("the person's add/y.txt: %q %v", b, err)
	}
	// Once the person's file is out of the way, the state is the one
	// before the landing, and the landing goes through.
	if err := os.Remove(filepath.Join(dir, "add", "y.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "add")); err != nil {
		t.Fatal(err)
	}
	if got := treeState(t, dir); got != before {
		t.Fatalf("after the cut landing was taken back:\n%s\nwant the state before it:\n%s", got, before)
	}
	if err := r.Landing().Advance(ctx, base, next, "again"); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "fsck", "--strict", "--no-progress")
}

// With the branch at the landing's commit there is nothing to take back.
func TestRetractLanded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir, base, next := retractRepo(t)
	if err := r.Landing().Advance(ctx, base, next, "landed"); err != nil {
		t.Fatal(err)
	}
	before := treeState(t, dir)
	if back, err := retract(ctx, r, next); err != nil || back != nil {
		t.Fatalf("retract on a landed branch: %v %v", back, err)
	}
	if got := treeState(t, dir); got != before {
		t.Fatalf("a landed branch's tree changed:\n%s\nwant:\n%s", got, before)
	}
}

// TestPathsInTheWay names the paths a landing would write that hold a person's
// work: an edit, a staged change, a deletion, an untracked file where the
// landing adds one, a file where it adds a directory; a person's work on
// paths the landing does not write is none of them. With none in the way,
// git's two-tree move goes through.
func TestPathsInTheWay(t *testing.T) {
	ctx := context.Background()
	r, dir, base, next := retractRepo(t)
	way, err := pathsInTheWay(ctx, r, base, next)
	if err != nil || len(way) != 0 {
		t.Fatalf("pathsInTheWay with the person's work outside the landing = %v, %v; want none", way, err)
	}
	gittest.WriteFile(t, dir, "change.txt", "the person's\n")
	gittest.WriteFile(t, dir, "add/x.txt", "an untracked file of the person's\n")
	if err := os.Remove(filepath.Join(dir, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	gittest.WriteFileMode(t, dir, "run.sh", "echo hi\n", 0o755)
	gittest.Git(t, dir, "add", "run.sh")
	if way, err = pathsInTheWay(ctx, r, base, next); err != nil {
		t.Fatal(err)
	}
	if want := []string{"add/x.txt", "change.txt", "gone.txt", "run.sh"}; !reflect.DeepEqual(way, want) {
		t.Errorf("pathsInTheWay = %v, want %v", way, want)
	}
	if err := r.Landing().Tree(ctx, base, next); err == nil {
		t.Error("Tree moved over the paths pathsInTheWay named")
	}

	// A file where the landing makes a directory.
	gittest.Git(t, dir, "reset", "-q", "--hard", string(base))
	gittest.Git(t, dir, "clean", "-qfd")
	gittest.WriteFile(t, dir, "add", "a file of the person's\n")
	if way, err = pathsInTheWay(ctx, r, base, next); err != nil {
		t.Fatal(err)
	}
	if want := []string{"add/x.txt", "add/y.txt"}; !reflect.DeepEqual(way, want) {
		t.Errorf("pathsInTheWay with a file where the landing adds a directory = %v, want %v", way, want)
	}
}
