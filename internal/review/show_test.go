package review

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/record"
)

func TestSection(t *testing.T) {
	t.Parallel()
	log := "# Log\n\n## Tasks\n\n### T001 – A\n\n- one\n\n### T0011 – not T001\n\nx\n### T002 – B\n\n- two\r\n\n## Issues\n\nnone\n"
	if got := Section(log, "T001"); got != "### T001 – A\n\n- one\n" {
		t.Errorf("T001 section %q", got)
	}
	if got := Section(log, "T002"); got != "### T002 – B\n\n- two\r\n" {
		t.Errorf("T002 section %q", got)
	}
	if got := Section(log, "T003"); got != "" {
		t.Errorf("missing section %q", got)
	}
	if got := Section("### T004 – last\nbody", "T004"); got != "### T004 – last\nbody\n" {
		t.Errorf("section at end of file %q", got)
	}
}

func TestFindTaskLogSectionAndNote(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHistory(t)
	h.fullRun(run1)
	f, err := FindTask(ctx, h.repo, "", TaskQuery{ID: "T002"})
	if err != nil || f.Run.ID != run1 || f.Task.ID != "T002" || len(f.Others) != 0 {
		t.Fatalf("FindTask = %+v %v", f, err)
	}
	tc := f.Task
	path, sec, err := LogSection(ctx, h.repo, *tc)
	if err != nil || path != logPath || !strings.HasPrefix(sec, "### T002 – title\n") || strings.Contains(sec, "Issues") {
		t.Errorf("LogSection = %q %q %v", path, sec, err)
	}
	byRev, runID, err := TaskAt(ctx, h.repo, string(tc.Commit.Short()))
	if err != nil || byRev.Commit != tc.Commit || runID != run1 {
		t.Errorf("TaskAt = %+v %q %v", byRev, runID, err)
	}
	if _, err := FindTask(ctx, h.repo, "", TaskQuery{ID: "T009"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("FindTask T009: %v", err)
	}
	if _, _, err := TaskAt(ctx, h.repo, "HEAD~4"); !errors.Is(err, ErrNotFound) {
		t.Errorf("TaskAt of the rollback commit: %v", err)
	}

	gs := []record.GateOutput{
		{Name: "test", Command: "go test ./...", Passed: true, Duration: 12 * time.Millisecond, Output: "ok  x 0.1s", Whole: true},
		{Name: "vet", Command: "go vet", Passed: false, ExitCode: 1, Duration: time.Second, Output: "tail only"},
	}
	note := record.Note("T002", gs)
	want := "planx gate output of T002\n\n== gate test: pass (exit 0, 12ms)\n$ go test ./...\nok  x 0.1s\n\n" +
		"== gate vet: fail (exit 1, 1000ms)\n$ go vet\n(last lines only)\ntail only\n"
	if string(note) != want {
		t.Errorf("note:\n%s\nwant:\n%s", note, want)
	}
	if err := h.repo.Notes().Add(ctx, record.NoteRef, tc.Commit, note); err != nil {
		t.Fatal(err)
	}
	if got := gittest.Git(t, h.dir, "notes", "--ref", "planx", "show", string(tc.Commit)); got+"\n" != want {
		t.Errorf("note read by git: %q", got)
	}
}
