package gates

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/planx-dev/planx/planparse"
)

func TestExpand(t *testing.T) {
	g := Gate{Command: "go test {blast_radius} && go vet {{blast_radius}}", DefaultRadius: "./..."}
	cases := []struct{ radius, want string }{
		{"./gates/...", "go test ./gates/... && go vet ./gates/..."},
		{"", "go test ./... && go vet ./..."},
		{"  ", "go test ./... && go vet ./..."},
		{"`./gates/...`, `./execlog/...`", "go test ./gates/... ./execlog/... && go vet ./gates/... ./execlog/..."},
	}
	for _, c := range cases {
		if got := g.Expand(c.radius); got != c.want {
			t.Errorf("Expand(%q) = %q, want %q", c.radius, got, c.want)
		}
	}
	g.DefaultRadius = ""
	if got := g.Expand(""); got != "go test  && go vet " {
		t.Errorf("no radius, no default: %q, want placeholders removed", got)
	}
	plain := Gate{Command: "make lint"}
	if got := plain.Expand("./x"); got != "make lint" {
		t.Errorf("command without placeholder changed: %q", got)
	}
}

func TestParseFlag(t *testing.T) {
	g, err := ParseFlag("test=go test ./... -run 'A=B'")
	if err != nil {
		t.Fatal(err)
	}
	if want := (Gate{Name: "test", Command: "go test ./... -run 'A=B'"}); g != want {
		t.Errorf("ParseFlag = %+v, want %+v", g, want)
	}
	g, err = ParseFlag("test@90s=go test ./...")
	if want := (Gate{Name: "test", Command: "go test ./...", Timeout: 90 * time.Second}); err != nil || g != want {
		t.Errorf("ParseFlag with a timeout = %+v %v, want %+v", g, err, want)
	}
	for _, bad := range []string{"test", "=go test", " =x", "lint=", "lint=  ", "test@=x", "test@soon=x", "test@-1s=x", "@5m=x"} {
		if _, err := ParseFlag(bad); err == nil {
			t.Errorf("ParseFlag(%q): no error", bad)
		} else if !strings.Contains(err.Error(), "--gate") {
			t.Errorf("ParseFlag(%q): error %q does not mention --gate", bad, err)
		}
	}
}

func TestFromPlan(t *testing.T) {
	gs, err := FromPlan([]planparse.GateDecl{
		{Name: "test", Command: "go test ./...", Timeout: "90s"},
		{Name: "e2e", Command: "make e2e", When: "final"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []Gate{
		{Name: "test", Command: "go test ./...", Timeout: 90 * time.Second},
		{Name: "e2e", Command: "make e2e", When: WhenFinal},
	}
	if !reflect.DeepEqual(gs, want) {
		t.Errorf("FromPlan = %+v, want %+v", gs, want)
	}
	_, err = FromPlan([]planparse.GateDecl{
		{Name: "test", Command: "x", Timeout: "ten minutes"},
		{Name: "lint", Command: "y", When: "sometimes"},
		{Command: "z"},
	})
	if err == nil {
		t.Fatal("no error for bad declarations")
	}
	for _, want := range []string{"gate test: timeout", "gate lint: when", "gate #3: missing name"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestMerge(t *testing.T) {
	config := []Gate{
		{Name: "test", Command: "go test ./...", Timeout: time.Minute, DefaultRadius: "./..."},
		{Name: "lint", Command: "golangci-lint run"},
	}
	plan := []Gate{
		{Name: "e2e", Command: "make e2e", When: WhenFinal},
		{Name: "lint", Command: "staticcheck ./...", When: WhenFinal},
	}
	flags := []Gate{
		{Name: "test", Command: "go test -short {blast_radius}"},
		{Name: "vet", Command: "go vet ./..."},
		{Name: "lint", Command: "true"},
	}
	got := Merge(config, plan, flags)
	want := []Gate{
		{Name: "test", Command: "go test -short {blast_radius}", Timeout: time.Minute, DefaultRadius: "./..."},
		{Name: "lint", Command: "true", When: WhenFinal},
		{Name: "e2e", Command: "make e2e", When: WhenFinal},
		{Name: "vet", Command: "go vet ./..."},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Merge =\n%+v\nwant\n%+v", got, want)
	}
	if len(Merge(nil, nil, nil)) != 0 {
		t.Error("Merge of nothing is not empty")
	}
}

func names(gs []Gate) []string {
	out := []string{}
	for _, g := range gs {
		out = append(out, g.Name)
	}
	return out
}

func TestSelect(t *testing.T) {
	all := []Gate{
		{Name: "test", When: WhenEach},
		{Name: "e2e", When: WhenFinal},
		{Name: "lint"},
	}
	cases := []struct {
		names []string
		final bool
		want  []string
	}{
		{nil, false, []string{"test", "lint"}},
		{nil, true, []string{"test", "e2e", "lint"}},
		{[]string{"lint", "e2e", "lint", "nope"}, false, []string{"lint", "e2e"}},
		{[]string{}, true, []string{}},
	}
	for _, c := range cases {
		if got := names(Select(all, c.names, c.final)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Select(%q, %v) = %q, want %q", c.names, c.final, got, c.want)
		}
	}
	if got := Unknown(all, []string{"nope", "test", "other"}); !reflect.DeepEqual(got, []string{"nope", "other"}) {
		t.Errorf("Unknown = %q", got)
	}
	if got := Unknown(all, nil); got != nil {
		t.Errorf("Unknown(nil) = %q", got)
	}
}

func TestLogName(t *testing.T) {
	if got := LogName("T003", "test"); got != "T003-test.log" {
		t.Errorf("LogName = %q", got)
	}
	if got := LogName("", "unit tests/all"); got != "unit_tests_all.log" {
		t.Errorf("LogName = %q", got)
	}
}

// ForPlan merges config, front matter and flags (a flag replaces a gate of
// its name) and refuses a task selecting a gate none declares.
func TestForPlan(t *testing.T) {
	src := "# P\n\n- [ ] T001 A\n  Gates: test, lint\n"
	plan, err := planparse.Parse("p.md", []byte(src), planparse.Options{})
	if err != nil || plan.Err() != nil {
		t.Fatal(err, plan.Err())
	}
	cfg := Config{Gates: []Gate{{Name: "test", Command: "go test ./..."}, {Name: "lint", Command: "make lint"}}}
	gs, err := ForPlan(cfg, plan, []string{"test=go test -short ./..."})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, g := range gs {
		got[g.Name] = g.Command
	}
	if len(gs) != 2 || got["test"] != "go test -short ./..." || got["lint"] != "make lint" {
		t.Errorf("ForPlan = %v", got)
	}
	_, err = ForPlan(Config{}, plan, nil)
	if !errors.Is(err, planparse.ErrInvalid) || !strings.Contains(err.Error(), `p.md:3: task T001 selects unknown gate "test"`) {
		t.Errorf("unknown gate: %v", err)
	}
}
