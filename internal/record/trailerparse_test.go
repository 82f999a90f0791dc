package record

import (
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

// TestParseTrailersAgreesWithGit holds ParseTrailers to git interpret-trailers
// and, for each message stored verbatim as a commit (commit-tree does no
// cleanup), to git log's %(trailers) of that commit.
func TestParseTrailersAgreesWithGit(t *testing.T) {
	gittest.Setenv(t)
	dir := gittest.Init(t)
	tree := strings.TrimSpace(gittest.GitInput(t, dir, "", "mktree"))
	for _, msg := range trailerMessages {
		got := formatTrailers(ParseTrailers(msg))
		want := gittest.GitInput(t, dir, msg, "interpret-trailers", "--parse", "--no-divider")
		if got != want {
			t.Errorf("message %q:\n got %q\n git %q", msg, got, want)
		}
		if strings.TrimSpace(msg) == "" {
			continue
		}
		c := strings.TrimSpace(gittest.GitInput(t, dir, msg, "commit-tree", "-F", "-", tree))
		if viaLog := gittest.GitInput(t, dir, "", "log", "-1", "--format=%(trailers:only,unfold)", c); strings.TrimRight(viaLog, "\n") != strings.TrimRight(want, "\n") {
			t.Errorf("message %q: %%(trailers) %q disagrees with interpret-trailers %q", msg, viaLog, want)
		}
		if got, git := TrailerOf(msg, "Key"), firstValue(want, "Key"); got != git {
			t.Errorf("message %q: TrailerOf(Key) = %q, git's first Key %q", msg, got, git)
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

// firstValue is the value of the first "key: value" line of git's
// trailer listing.
func firstValue(listing, key string) string {
	for _, l := range strings.Split(listing, "\n") {
		if v, ok := strings.CutPrefix(l, key+": "); ok {
			return v
		}
	}
	return ""
}
