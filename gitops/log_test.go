package gitops

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// trailerMessages are messages whose trailers planx and git must agree on.
var trailerMessages = []string{
	"",
	"subject only",
	"subject\n\nbody\n",
	"subject\n\nKey: v\n",
	"subject\n\nbody\n\nA: 1\nB-C: two words\n",
	"subject\n\nbody\n\nKey: line one\n  line two\n\tline three\nOther: x\n",
	"subject\n\nFake: 1\nFake-Too: 2\n\nreal body after the look-alike block\n",
	"subject\n\nbody\n\nKey: v\nnot a trailer\n",
	"subject\n\nSigned-off-by: A <a@b.invalid>\nfree text here\nmore text\n",
	"subject\n\nSigned-off-by: A\nt1\nt2\nt3\nt4\n",
	"subject\n\nKey: v\n\n# comment\n\n",
	"subject\n\nbody\n---\nKey: v\n",
	"subject\n\nKey: v\n---\nafter\n",
	"subject\n\nKey : spaced\nKey2\t: tabbed\n",
	"subject\n\nEmpty:\nKey:   padded   \n",
	"Key: v\nOther: w\n",
	"fix: subject with colon\n\nRefs: #12\n",
	"subject\n\nКлюч: v\n",
	"subject\n\nKey: no final newline",
	"subject\n\nbody\n\n(cherry picked from commit 0123456789abcdef0123456789abcdef01234567)\n",
	"subject\n\n  indented\nKey: v\n",
	"subject\n\nKey: v\n\nConflicts:\n\tfile.c\n",
	"subject\n\nKey: v\n# ------------------------ >8 ------------------------\ndiff --git a b\n",
	"subject\n\nKey: v\n   \n",
	"subject\r\n\r\nKey: v\r\nOther: w\r\n",
	"subject\n\nKey: a: b\nURL: https://example.invalid/x\n",
	"subject\n\nA: 1\n# a comment inside\nB: 2\n",
	"# only a comment\n\nKey: v\n",
	"subject\n\n\n\nPlanx-Task: 3\nPlanx-Plan: plans/p.md\nPlanx-Files: a.go,\n  b.go\n\n\n",
	"subject\nsecond subject line\n\nKey: v\n",
	"subject\n\nKey:v\n-Dash: x\n",
}

func formatTrailers(ts []Trailer) string {
	var b strings.Builder
	for _, t := range ts {
		fmt.Fprintf(&b, "%s: %s\n", t.Key, t.Value)
	}
	return b.String()
}

func TestParseTrailersAgreesWithGit(t *testing.T) {
	t.Parallel()
	dir := gittest.Init(t)
	for _, msg := range trailerMessages {
		got := formatTrailers(ParseTrailers(msg))
		want := gittest.GitInput(t, dir, msg, "interpret-trailers", "--parse", "--no-divider")
		if got != want {
			t.Errorf("message %q:\n got %q\n git %q", msg, got, want)
		}
	}
	// Without --no-divider git would stop at "---"; ParseTrailers does not.
	msg := "subject\n\nKey: v\n---\nafter\n"
	if git := gittest.GitInput(t, dir, msg, "interpret-trailers", "--parse"); git != "Key: v\n" {
		t.Fatalf("git with divider: %q", git)
	}
	if got := ParseTrailers(msg); got != nil {
		t.Errorf("ParseTrailers treated --- as a divider: %q", got)
	}
}

// TestLog stores each message verbatim (commit-tree does no cleanup) and
// checks the walk against rev-list and the trailers against git.
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
	for _, msg := range trailerMessages {
		if strings.TrimSpace(msg) == "" {
			continue
		}
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
		want := gittest.GitInput(t, dir, raw, "interpret-trailers", "--parse", "--no-divider")
		if got := formatTrailers(c.Trailers); got != want {
			t.Errorf("%s %q: trailers %q, git %q", c.SHA.Short(), raw, got, want)
		}
		if viaLog := gittest.GitInput(t, dir, "", "log", "-1", "--format=%(trailers:only,unfold)", string(c.SHA)); strings.TrimRight(viaLog, "\n") != strings.TrimRight(want, "\n") {
			t.Errorf("%s: %%(trailers) %q disagrees with interpret-trailers %q", c.SHA.Short(), viaLog, want)
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
	sha, err := r.Commit(ctx, "subject\n\n"+body+"\n", CommitOptions{AllowEmpty: true})
	if err != nil {
		t.Fatal(err)
	}
	one, err := r.History().Log(ctx, sha, "", 1)
	if err != nil || len(one) != 1 || one[0].Subject != "subject" || one[0].Body != body ||
		formatTrailers(one[0].Trailers) != "Planx-Task: 1\n" {
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
