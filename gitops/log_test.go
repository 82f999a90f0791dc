package gitops

import (
	"context"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// logMessages are odd messages Log must read back as stored: trailers,
// comments, blank lines, CRLF, no final newline (record's tests hold the
// whole set whose trailers planx and git must agree on).
var logMessages = []string{
	"subject only",
	"subject\n\nbody\n",
	"subject\n\nbody\n\nKey: line one\n  line two\n\tline three\nOther: x\n",
	"subject\n\nKey: v\n\n# comment\n\n",
	"subject\n\nKey: v\n---\nafter\n",
	"Key: v\nOther: w\n",
	"subject\n\nKey: no final newline",
	"subject\r\n\r\nKey: v\r\nOther: w\r\n",
	"# only a comment\n\nKey: v\n",
	"subject\n\n\n\nPlanx-Task: 3\nPlanx-Plan: plans/p.md\nPlanx-Files: a.go,\n  b.go\n\n\n",
	"subject\nsecond subject line\n\nKey: v\n",
}

// TestLog stores each message verbatim (commit-tree does no cleanup) and
// checks the walk against rev-list and each message against git's.
func TestLog(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := newRepo(t)
	base := gittest.Commit(t, dir, "base")
	gittest.Git(t, dir, "checkout", "-q", "-b", "side")
	side := gittest.Commit(t, dir, "side work")
	gittest.Git(t, dir, "checkout", "-q", "main")
	gittest.Git(t, dir, "merge", "-q", "--no-ff", "-m", "merge side", "side")
	parent := gittest.Git(t, dir, "rev-parse", "HEAD")
	for _, msg := range logMessages {
		tree := gittest.Git(t, dir, "rev-parse", "HEAD^{tree}")
		parent = strings.TrimSpace(gittest.GitInput(t, dir, msg, "commit-tree", "-p", parent, "-F", "-", tree))
	}
	gittest.Git(t, dir, "update-ref", "refs/heads/main", parent)

	all, err := r.History().Log(ctx, SHA(parent), "", 0)
	if err != nil {
		t.Fatal(err)
	}
	var shas []string
	for _, c := range all {
		shas = append(shas, string(c.SHA))
	}
	if want := gittest.Git(t, dir, "rev-list", "--first-parent", parent); strings.Join(shas, "\n") != want {
		t.Fatalf("walk:\n%s\nrev-list:\n%s", strings.Join(shas, "\n"), want)
	}
	for _, c := range all {
		if string(c.SHA) == side {
			t.Error("walk left the first-parent chain")
		}
		raw := gittest.GitInput(t, dir, "", "log", "-1", "--format=%B", string(c.SHA))
		object := gittest.GitInput(t, dir, "", "cat-file", "commit", string(c.SHA))
		if _, stored, _ := strings.Cut(object, "\n\n"); c.Message != stored {
			t.Errorf("%s: message %q, stored %q", c.SHA.Short(), c.Message, stored)
		}
		if got := gittest.Git(t, dir, "log", "-1", "--format=%P", string(c.SHA)); got != joinSHAs(c.Parents) {
			t.Errorf("%s: parents %v, git %q", c.SHA.Short(), c.Parents, got)
		}
		if subject, _, _ := strings.Cut(raw, "\n"); c.Subject != subject {
			t.Errorf("%s: subject %q, want %q", c.SHA.Short(), c.Subject, subject)
		}
		if c.Time.IsZero() || c.Time.Unix() != 1767323045 {
			t.Errorf("%s: time %v", c.SHA.Short(), c.Time)
		}
	}
	if all[len(all)-1].SHA != SHA(base) || len(all[len(all)-2].Parents) != 2 {
		t.Errorf("walk does not end at base through the merge")
	}

	some, err := r.History().Log(ctx, SHA(parent), SHA(base), 3)
	if err != nil || len(some) != 3 || some[0].SHA != SHA(parent) {
		t.Fatalf("Log with max: %d commits, %v", len(some), err)
	}
	upTo, err := r.History().Log(ctx, SHA(parent), all[2].SHA, 0)
	if err != nil || len(upTo) != 2 || upTo[1].SHA != all[1].SHA {
		t.Errorf("Log to stopAt: %d commits, %v", len(upTo), err)
	}
	none, err := r.History().Log(ctx, SHA(parent), SHA(parent), 0)
	if err != nil || len(none) != 0 {
		t.Errorf("Log from == stopAt: %v, %v", none, err)
	}

	body := "body line\n\nPlanx-Task: 1"
	sha, err := r.Commits().Commit(ctx, "subject\n\n"+body+"\n", CommitOptions{AllowEmpty: true})
	if err != nil {
		t.Fatal(err)
	}
	one, err := r.History().Log(ctx, sha, "", 1)
	if err != nil || len(one) != 1 || one[0].Subject != "subject" || one[0].Body != body ||
		one[0].Message != "subject\n\n"+body+"\n" {
		t.Errorf("Log of a planx commit: %+v, %v", one, err)
	}
	fsck(t, dir)
}

func joinSHAs(s []SHA) string {
	var parts []string
	for _, x := range s {
		parts = append(parts, string(x))
	}
	return strings.Join(parts, " ")
}
