package testreport

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// rep builds a report from "ID=outcome" pairs; the group is the part of
// the ID before its last ".".
func rep(failed bool, pairs ...string) Report {
	b := newBuilder("test")
	for _, p := range pairs {
		id, o, _ := strings.Cut(p, "=")
		group := ""
		if i := strings.LastIndexByte(id, '.'); i >= 0 {
			group = id[:i]
		}
		b.add(Test{ID: id, Group: group, Outcome: Outcome(o)})
	}
	if failed {
		b.fail("package broke")
	}
	return b.report()
}

func ids(tests []Test) []string {
	var out []string
	for _, t := range tests {
		out = append(out, t.ID)
	}
	return out
}

func TestJudge(t *testing.T) {
	base := rep(false, "a.keep=pass", "a.break=pass", "a.gone=pass", "b.gone=pass", "a.skipnow=pass", "a.fix=fail", "a.stillred=fail", "a.wasskipped=skip")
	tests := []struct {
		name                      string
		base, now                 Report
		opt                       Options
		broken, vanished, skipped []string
		targets, new, fixed       []string
		ok                        bool
		summary                   string
	}{
		{"every kind of change",
			base, rep(false, "a.keep=pass", "a.break=fail", "a.skipnow=skip", "a.fix=pass", "a.stillred=fail", "a.wasskipped=fail", "a.added=pass", "a.addedbad=fail"),
			Options{Targets: []string{"a.fix", "a.missing", "a.addedbad"}},
			[]string{"a.break"}, []string{"a.gone", "b.gone"}, []string{"a.skipnow"},
			[]string{"a.addedbad", "a.missing"}, []string{"a.added", "a.addedbad"}, []string{"a.fix"},
			false, "3 passed (+1 new) 4 failed (+1 new) 1 skipped; 1 fixed; 1 broken; 2 vanished; 1 newly skipped; 2 targets failing"},
		{"a test that failed at the base and does not run now has vanished",
			rep(false, "a.x=fail", "b.y=pass"), rep(false, "b.y=pass", "z.file=pass"), Options{},
			nil, []string{"a.x"}, nil, nil, []string{"z.file"}, nil,
			false, "2 passed (+1 new) 0 failed 0 skipped; 1 vanished"},
		{"a declared group's tests may vanish",
			rep(false, "a.x=pass", "b.y=pass"), rep(false, "b.y=pass", "a.renamed=pass"),
			Options{Declared: func(g string) bool { return g == "a" }},
			nil, nil, nil, nil, []string{"a.renamed"}, nil,
			true, "2 passed (+1 new) 0 failed 0 skipped"},
		{"a red and even broken baseline is fine",
			rep(true, "a.x=fail"), rep(false, "a.x=fail", "a.y=pass"), Options{Targets: []string{"a.y"}},
			nil, nil, nil, nil, []string{"a.y"}, nil,
			true, "1 passed (+1 new) 1 failed 0 skipped"},
		{"an empty baseline", Report{}, rep(false, "a.x=pass"), Options{},
			nil, nil, nil, nil, []string{"a.x"}, nil, true, "1 passed (+1 new) 0 failed 0 skipped"},
		{"a run that failed outside its tests",
			rep(false, "a.x=pass"), rep(true, "a.x=pass"), Options{},
			nil, nil, nil, nil, nil, nil, false, "1 passed 0 failed 0 skipped; run failed"},
		{"nothing ran", rep(false), rep(false, "a.s=skip"), Options{},
			nil, nil, nil, nil, []string{"a.s"}, nil, false, "0 passed 0 failed 1 skipped"},
		{"a skipped target", rep(false), rep(false, "a.x=pass", "a.t=skip"), Options{Targets: []string{"a.t", "a.t"}},
			nil, nil, nil, []string{"a.t"}, []string{"a.t", "a.x"}, nil, false, "1 passed (+1 new) 0 failed 1 skipped; 1 targets failing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Judge(tt.base, tt.now, tt.opt)
			for _, c := range []struct {
				what      string
				got, want []string
			}{
				{"Broken", ids(v.Broken), tt.broken}, {"Vanished", ids(v.Vanished), tt.vanished},
				{"Skipped", ids(v.Skipped), tt.skipped}, {"TargetsFailing", ids(v.TargetsFailing), tt.targets},
				{"New", ids(v.New), tt.new}, {"Fixed", ids(v.Fixed), tt.fixed},
			} {
				if !reflect.DeepEqual(c.got, c.want) {
					t.Errorf("%s = %q, want %q", c.what, c.got, c.want)
				}
			}
			if v.OK() != tt.ok {
				t.Errorf("OK() = %v, want %v; reasons %q", v.OK(), tt.ok, v.Reasons())
			}
			if got := v.Summary(); got != tt.summary {
				t.Errorf("Summary() = %q, want %q", got, tt.summary)
			}
			if tt.ok != (len(v.Reasons()) == 0) {
				t.Errorf("OK() = %v but Reasons() = %q", v.OK(), v.Reasons())
			}
		})
	}
}

func TestReasons(t *testing.T) {
	base := rep(false, "p.T1=pass", "p.T2=pass", "p.T3=pass", "p.T4=pass", "p.T5=pass", "q.V=pass")
	now := rep(true, "p.T1=fail", "p.T2=fail", "p.T3=fail", "p.T4=fail", "p.T5=skip", "p.X=fail")
	got := Judge(base, now, Options{Targets: []string{"p.X", "p.Missing"}}).Reasons()
	want := []string{
		"T1 (p) passed at the base and fails now",
		"T2 (p) passed at the base and fails now",
		"T3 (p) passed at the base and fails now",
		"1 more tests passed at the base and fail now",
		"V (q) ran at the base and did not run now",
		"T5 (p) passed at the base and is skipped now",
		"the target p.Missing did not run",
		"the target X (p) must pass and is failing",
		"the test run failed outside any test: package broke",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Reasons() =\n%q\nwant\n%q", got, want)
	}
	if r := Judge(Report{}, Report{}, Options{}).Reasons(); !reflect.DeepEqual(r, []string{"no test ran"}) {
		t.Errorf("Reasons() of an empty run = %q", r)
	}
}

func TestDisplay(t *testing.T) {
	tests := []struct {
		t    Test
		want string
	}{
		{Test{ID: "example.com/calc TestSub/neg", Group: "example.com/calc"}, "TestSub/neg (example.com/calc)"},
		{Test{ID: "test_calc.TestCalc.test_add", Group: "test_calc"}, "TestCalc.test_add (test_calc)"},
		{Test{ID: "tests.test_calc.test_add", Group: "tests/test_calc.py"}, "tests.test_calc.test_add (tests/test_calc.py)"},
		{Test{ID: "group > inner"}, "group > inner"},
		{Test{ID: "mod", Group: "mod"}, "mod"},
	}
	for _, tt := range tests {
		if got := Display(tt.t); got != tt.want {
			t.Errorf("Display(%+v) = %q, want %q", tt.t, got, tt.want)
		}
	}
}

// TestJudgeRealGo grades two real go test -json runs of one package
// (testdata/make-fixtures.sh): the task fixed Sub, added TestMul and
// dropped the table's "neg" case.
func TestJudgeRealGo(t *testing.T) {
	read := func(name string) Report {
		f, err := os.Open("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		r, err := ParseGoJSON(f)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	base, now := read("go-calc-base.json"), read("go-calc-now.json")
	const pkg = "example.com/calc/calc"
	v := Judge(base, now, Options{Targets: []string{pkg + " TestSub"}})
	if got := ids(v.Vanished); !reflect.DeepEqual(got, []string{pkg + " TestTable/neg"}) {
		t.Errorf("Vanished = %q", got)
	}
	if v.OK() {
		t.Error("a dropped test case passed the judge")
	}
	if got, want := v.Reasons(), []string{"TestTable/neg (example.com/calc/calc) ran at the base and did not run now"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Reasons() = %q, want %q", got, want)
	}
	v = Judge(base, now, Options{Targets: []string{pkg + " TestSub"}, Declared: func(g string) bool { return g == pkg }})
	if !v.OK() {
		t.Errorf("the declared package's change failed the judge: %q", v.Reasons())
	}
	if got, want := v.Summary(), "7 passed (+1 new) 0 failed 1 skipped; 1 fixed"; got != want {
		t.Errorf("Summary() = %q, want %q", got, want)
	}
}
