package testreport

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestReportHelpers(t *testing.T) {
	r := rep(false, "a.x=pass", "a.y=fail", "b.z=pass", "b.s=skip")
	if r.Count(Pass) != 2 || r.Count(Fail) != 1 || r.Count(Skip) != 1 {
		t.Errorf("counts %d/%d/%d", r.Count(Pass), r.Count(Fail), r.Count(Skip))
	}
	for i := 1; i < len(r.Tests); i++ {
		if r.Tests[i-1].ID >= r.Tests[i].ID {
			t.Fatalf("tests not sorted and unique: %q", ids(r.Tests))
		}
	}
	if got, ok := r.Lookup("a.y"); !ok || got.Outcome != Fail || got.Group != "a" {
		t.Errorf("Lookup(a.y) = %+v, %v", got, ok)
	}
	if _, ok := r.Lookup("a.nope"); ok {
		t.Error("Lookup found a test that is not there")
	}
}

func TestBuilderKeepsTheWorseOutcome(t *testing.T) {
	for _, seq := range [][]Outcome{{Pass, Fail}, {Fail, Pass}, {Skip, Fail, Pass}} {
		b := newBuilder("x")
		for _, o := range seq {
			b.add(Test{ID: "t", Outcome: o})
		}
		if got := b.report().Tests[0].Outcome; got != Fail {
			t.Errorf("%v: %s, want fail", seq, got)
		}
	}
	b := newBuilder("x")
	b.add(Test{ID: "t", Outcome: Skip})
	b.add(Test{ID: "t", Outcome: Pass})
	if got := b.report().Tests[0].Outcome; got != Pass {
		t.Errorf("skip then pass: %s, want pass", got)
	}
}

// TestNotesPutReasonsFirst: a caller showing one note shows why the report
// failed, and a flood of notes is cut.
func TestNotesPutReasonsFirst(t *testing.T) {
	b := newBuilder("x")
	for i := 0; i < 30; i++ {
		b.note("stray line %d", i)
	}
	b.fail("the reason")
	r := b.report()
	if !r.Failed || r.Notes[0] != "the reason" {
		t.Errorf("Notes[0] = %q, want the reason", r.Notes[0])
	}
	if last := r.Notes[len(r.Notes)-1]; last != "10 more notes left out" {
		t.Errorf("last note %q", last)
	}
}

func TestParseDispatch(t *testing.T) {
	for kind, in := range map[string]string{
		KindGoJSON:   `{"Action":"pass","Package":"p","Test":"T"}` + "\n" + `{"Action":"pass","Package":"p"}`,
		KindJUnit:    `<testsuite name="s"><testcase classname="p" name="T"/></testsuite>`,
		KindUnittest: "T (p.T) ... ok\n\n----------------------------------------------------------------------\nRan 1 test in 0.000s\n\nOK\n",
		KindTAP:      "ok 1 - p T\n1..1\n",
	} {
		r, err := Parse(kind, strings.NewReader(in))
		if err != nil || r.Kind != kind || r.Count(Pass) != 1 || r.Failed {
			t.Errorf("Parse(%q) = %+v, %v", kind, r, err)
		}
	}
	if _, err := Parse("xunit", strings.NewReader("")); err == nil || !strings.Contains(err.Error(), `unknown test report kind "xunit"`) {
		t.Errorf("Parse(xunit) error = %v", err)
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("é", 100) // 200 bytes
	got := clip(long)
	if !utf8.ValidString(got) || len(got) > 120 || !strings.HasSuffix(got, "...") {
		t.Errorf("clip cut %q", got)
	}
	if clip("  short \n") != "short" {
		t.Error("clip does not trim")
	}
}
