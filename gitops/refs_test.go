package gitops

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

func TestRefsUpdate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	one := SHA(gittest.Commit(t, dir, "one"))
	two := SHA(gittest.Commit(t, dir, "two"))
	const ref = "refs/planx/rollback/main"

	if err := r.Refs().Update(ctx, ref, one, ZeroSHA, "planx: rollback point"); err != nil {
		t.Fatal(err)
	}
	if err := r.Refs().Update(ctx, ref, two, ZeroSHA, "again"); !errors.Is(err, ErrHeadMoved) {
		t.Errorf("create over an existing ref: %v, want ErrHeadMoved", err)
	}
	if err := r.Refs().Update(ctx, ref, two, two, "wrong old"); !errors.Is(err, ErrHeadMoved) {
		t.Errorf("CAS with a stale old value: %v, want ErrHeadMoved", err)
	}
	if got, _ := r.Refs().Resolve(ctx, ref); got != one {
		t.Errorf("ref moved by a failed CAS: %s", got)
	}
	if err := r.Refs().Update(ctx, ref, two, one, "advance"); err != nil {
		t.Fatal(err)
	}
	if err := r.Refs().Update(ctx, ref, one, "", "unconditional"); err != nil {
		t.Fatal(err)
	}
	if got, _ := r.Refs().Resolve(ctx, ref); got != one {
		t.Errorf("Resolve = %s, want %s", got, one)
	}
	reflog := gittest.Git(t, dir, "reflog", "show", "--format=%gs", "refs/heads/main")
	if !strings.Contains(reflog, "commit: two") {
		t.Errorf("reflog of main: %q", reflog)
	}
	if err := r.Refs().Update(ctx, "refs/heads/main", one, two, "planx: rollback"); err != nil {
		t.Fatal(err)
	}
	if msg := gittest.Git(t, dir, "reflog", "-1", "--format=%gs", "refs/heads/main"); msg != "planx: rollback" {
		t.Errorf("reflog message %q", msg)
	}

	if err := r.Refs().Delete(ctx, ref); err != nil {
		t.Fatal(err)
	}
	if err := r.Refs().Delete(ctx, ref); err != nil {
		t.Errorf("deleting a missing ref: %v", err)
	}
	if err := r.Refs().Update(ctx, ref, two, one, "gone"); !errors.Is(err, ErrHeadMoved) {
		t.Errorf("CAS on a deleted ref: %v, want ErrHeadMoved", err)
	}
	if err := r.Refs().Update(ctx, "-d", two, "", "x"); err == nil {
		t.Error("option-looking ref accepted")
	}
	// Several at once, one of them missing: the others go.
	for _, x := range []string{"refs/planx/x1", "refs/planx/x2"} {
		if err := r.Refs().Update(ctx, x, one, "", "x"); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Refs().Delete(ctx, "refs/planx/x1", ref, "refs/planx/x2"); err != nil {
		t.Errorf("deleting two refs and a missing one: %v", err)
	}
	if left := gittest.Git(t, dir, "for-each-ref", "refs/planx/"); left != "" {
		t.Errorf("left after deleting them: %q", left)
	}
	if err := r.Refs().Delete(ctx, "refs/planx/x1", "-d"); err == nil {
		t.Error("option-looking ref accepted among others")
	}

	// A held ref lock is contention, not a lost race.
	r.retry = lockRetry{attempts: 2}
	lock := filepath.Join(r.GitDir, "refs", "heads", "main.lock")
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := r.Refs().Update(ctx, "refs/heads/main", two, one, "locked")
	if !errors.Is(err, ErrLocked) || errors.Is(err, ErrHeadMoved) {
		t.Errorf("locked ref: %v, want ErrLocked", err)
	}
	os.Remove(lock)
	fsck(t, dir)
}

func TestRefsResolve(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	if got, err := r.Refs().Resolve(ctx, "HEAD"); got != "" || err != nil {
		t.Errorf("unborn HEAD: %q, %v", got, err)
	}
	sha := gittest.Commit(t, dir, "one")
	gittest.Git(t, dir, "tag", "-a", "-m", "annotated", "v1")
	for rev, want := range map[string]SHA{"HEAD": SHA(sha), "main": SHA(sha), "v1": SHA(sha), "nope": "", "HEAD^{tree}": ""} {
		if got, err := r.Refs().Resolve(ctx, rev); got != want || err != nil {
			t.Errorf("Resolve(%s) = %q, %v; want %q", rev, got, err, want)
		}
	}
	if _, err := r.Refs().Resolve(ctx, "--all"); err == nil {
		t.Error("option-looking rev accepted")
	}
}

func TestChangedFilesAndAncestry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	gittest.WriteFile(t, dir, "a.txt", "a\n")
	gittest.WriteFile(t, dir, "dir/b c.txt", "b\n")
	one := SHA(gittest.Commit(t, dir, "one"))
	gittest.Git(t, dir, "mv", "a.txt", "moved.txt")
	gittest.WriteFile(t, dir, "dir/b c.txt", "changed\n")
	gittest.WriteFile(t, dir, "new\nline", "n\n")
	two := SHA(gittest.Commit(t, dir, "two"))

	got, err := r.History().ChangedFiles(ctx, "", one)
	if err != nil || !reflect.DeepEqual(got, []string{"a.txt", "dir/b c.txt"}) {
		t.Errorf("ChangedFiles(empty, one) = %q, %v", got, err)
	}
	got, err = r.History().ChangedFiles(ctx, one, two)
	sort.Strings(got)
	if err != nil || !reflect.DeepEqual(got, []string{"a.txt", "dir/b c.txt", "moved.txt", "new\nline"}) {
		t.Errorf("ChangedFiles(one, two) = %q, %v", got, err)
	}
	if got, err := r.History().ChangedFiles(ctx, two, two); err != nil || len(got) != 0 {
		t.Errorf("ChangedFiles(two, two) = %q, %v", got, err)
	}

	for _, c := range []struct {
		a, b SHA
		want bool
	}{{one, two, true}, {two, one, false}, {two, two, true}} {
		if got, err := r.History().IsAncestor(ctx, c.a, c.b); got != c.want || err != nil {
			t.Errorf("IsAncestor(%s, %s) = %v, %v", c.a.Short(), c.b.Short(), got, err)
		}
	}
	if _, err := r.History().IsAncestor(ctx, one, "0123456789012345678901234567890123456789"); err == nil {
		t.Error("IsAncestor with a missing commit: no error")
	}

	data, err := r.History().ShowFile(ctx, one, "a.txt")
	if err != nil || string(data) != "a\n" {
		t.Errorf("ShowFile = %q, %v", data, err)
	}
	if _, err := r.History().ShowFile(ctx, two, "a.txt"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ShowFile of a removed path: %v, want fs.ErrNotExist", err)
	}
	if data, err := r.History().ShowFile(ctx, two, "dir/b c.txt"); err != nil || string(data) != "changed\n" {
		t.Errorf("ShowFile = %q, %v", data, err)
	}
}

// planx's git reads objects as stored: a replace ref (git replace) that
// makes the user's git read another blob changes nothing planx reads,
// checks out or lists, and the replace refs are listed all the same.
func TestNoReplaceObjects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	gittest.WriteFile(t, dir, "test.sh", "strict\n")
	gittest.Git(t, dir, "add", "test.sh")
	head := SHA(gittest.Commit(t, dir, "a test"))
	real := gittest.Git(t, dir, "rev-parse", "HEAD:test.sh")
	weak := strings.TrimSpace(gittest.GitInput(t, dir, "weak\n", "hash-object", "-w", "--stdin"))
	gittest.Git(t, dir, "replace", real, weak)
	if got := gittest.Git(t, dir, "cat-file", "-p", "HEAD:test.sh"); got != "weak" {
		t.Fatalf("the user's git reads %q: the replacement is not in force", got)
	}
	b, err := r.History().ShowFile(ctx, head, "test.sh")
	if err != nil || string(b) != "strict\n" {
		t.Errorf("ShowFile = %q, %v; want the stored blob", b, err)
	}
	wt := filepath.Join(t.TempDir(), "wt")
	if err := r.Worktrees().Add(ctx, wt, head); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(wt, "test.sh")); string(b) != "strict\n" {
		t.Errorf("checkout holds %q; want the stored blob", b)
	}
	refs, err := r.Refs().List(ctx, ReplaceRefs)
	if err != nil || refs[ReplaceRefs+real] != SHA(weak) {
		t.Errorf("List(%s) = %v, %v; want the replace ref", ReplaceRefs, refs, err)
	}
}
