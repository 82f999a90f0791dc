package testreport

import (
	"strings"
	"testing"
)

func TestWithTwins(t *testing.T) {
	const nonce = "abc"
	tw0, tw1 := TwinToken(nonce, 0), TwinToken(nonce, 1)
	ok := map[string]string{".": CanaryOK, "sub": CanaryAbsent}
	for _, c := range []struct {
		name  string
		tests []Test
		twins []Twin
		want  string // a word the one problem holds, or "" for none
	}{
		{"twin passes too", []Test{{ID: "m.T.test_sub", Outcome: Pass}, {ID: "test_" + tw0 + ".T" + tw0 + ".test_" + tw0, Outcome: Pass}},
			[]Twin{{0, "m.T.test_sub", "."}}, ""},
		{"twin fails", []Test{{ID: "m.T.test_sub", Outcome: Pass}, {ID: "test_" + tw0 + ".test_" + tw0, Outcome: Fail}},
			[]Twin{{0, "m.T.test_sub", "."}}, "reported failed"},
		{"twin skipped", []Test{{ID: "m.test_sub", Outcome: Pass}, {ID: tw0 + " sub", Outcome: Skip}},
			[]Twin{{0, "m.test_sub", "."}}, "reported skipped"},
		{"twin missing", []Test{{ID: "m.test_sub", Outcome: Pass}},
			[]Twin{{0, "m.test_sub", "."}}, "missing from the report"},
		{"original fails: judged elsewhere", []Test{{ID: "m.test_sub", Outcome: Fail}, {ID: tw0 + " x", Outcome: Fail}},
			[]Twin{{0, "m.test_sub", "."}}, ""},
		{"canaries absent there: nothing said", []Test{{ID: "sub.test_sub", Outcome: Pass}},
			[]Twin{{0, "sub.test_sub", "sub"}}, ""},
		// the copies of the file's other tests are taken out, not judged
		{"other copies", []Test{{ID: "m.T.test_sub", Outcome: Pass}, {ID: "test_" + tw0 + ".T" + tw0 + ".test_" + tw0, Outcome: Pass},
			{ID: "test_" + tw0 + ".T" + tw0 + ".test_skipped", Outcome: Skip}, {ID: TwinCopy(nonce) + " other", Outcome: Fail},
			{ID: tw0 + " suite > " + TwinCopy(nonce) + " other", Outcome: Skip}},
			[]Twin{{0, "m.T.test_sub", "."}}, ""},
		{"node twin nested", []Test{{ID: "suite > sub", Outcome: Pass}, {ID: tw0 + " suite > " + tw0 + " sub", Outcome: Fail},
			{ID: tw0 + " suite > " + TwinCopy(nonce) + " other", Outcome: Pass}},
			[]Twin{{0, "suite > sub", "."}}, "reported failed"},
		{"pytest parameters", []Test{{ID: "m.test_sub[1.5]", Outcome: Pass}, {ID: "test_" + tw0 + ".test_" + tw0 + "[1.5]", Outcome: Pass}},
			[]Twin{{0, "m.test_sub[1.5]", "."}}, ""},
		{"pytest parameters apart", []Test{{ID: "m.test_sub[1]", Outcome: Pass}, {ID: "m.test_sub[2]", Outcome: Fail},
			{ID: "test_" + tw0 + ".test_" + tw0 + "[1]", Outcome: Pass}, {ID: "test_" + tw0 + ".test_" + tw0 + "[2]", Outcome: Fail}},
			[]Twin{{0, "m.test_sub[1]", "."}, {0, "m.test_sub[2]", "."}}, ""},
		{"pytest parameter steered", []Test{{ID: "m.test_sub[1]", Outcome: Pass}, {ID: "test_" + tw0 + ".test_" + tw0 + "[1]", Outcome: Fail}},
			[]Twin{{0, "m.test_sub[1]", "."}}, "m.test_sub[1] is reported passed"},
		// _1_ is not _10_: twin 1 passed, twin 10's failure is not its.
		{"numbers apart", []Test{{ID: "a", Outcome: Pass}, {ID: tw1 + " a", Outcome: Pass}, {ID: TwinToken(nonce, 10) + " b", Outcome: Fail}},
			[]Twin{{1, "a", "."}}, ""},
	} {
		rep := WithTwins(Report{Tests: c.tests, Canaries: ok}, nonce, c.twins)
		for _, tt := range rep.Tests {
			if strings.Contains(tt.ID, "Planxtwin") {
				t.Errorf("%s: twin %s left in the report", c.name, tt.ID)
			}
		}
		switch {
		case c.want == "" && len(rep.Twins) != 0:
			t.Errorf("%s: problems %q, want none", c.name, rep.Twins)
		case c.want != "" && (len(rep.Twins) != 1 || !strings.Contains(rep.Twins[0], c.want)):
			t.Errorf("%s: problems %q, want one saying %q", c.name, rep.Twins, c.want)
		}
		if got := CanaryProblems(Report{}, rep); len(got) != len(rep.Twins) {
			t.Errorf("%s: CanaryProblems = %q, want the twins' %q", c.name, got, rep.Twins)
		}
	}
}
