package execlog

import (
	"github.com/planx-dev/planx/internal/record"
	"strings"
	"testing"
	"time"
)

func TestTaskByID(t *testing.T) {
	l := &Log{Tasks: []Task{{ID: "T001", Status: record.TaskPending}, {ID: "T002", Status: record.TaskPending}}}
	l.TaskByID("T002").Status = record.TaskDone
	if l.Tasks[1].Status != record.TaskDone {
		t.Error("TaskByID does not point into the log")
	}
	if l.TaskByID("T009") != nil {
		t.Error("TaskByID of an unknown ID is not nil")
	}
}

func TestFileName(t *testing.T) {
	at := time.Date(2026, 11, 21, 11, 0, 5, 0, time.FixedZone("CET", 3600))
	cases := map[string]string{
		"web-fetch-tool":    "2026-11-21_10-00-05_web-fetch-tool.md",
		"prompt_versioning": "2026-11-21_10-00-05_prompt_versioning.md",
		"../Odd name/ é!":   "2026-11-21_10-00-05_Odd-name.md",
		"":                  "2026-11-21_10-00-05_run.md",
	}
	for topic, want := range cases {
		if got := FileName(at, topic); got != want {
			t.Errorf("FileName(%q) = %q, want %q", topic, got, want)
		}
	}
}

func TestNextStep(t *testing.T) {
	l := &Log{Title: "x", StartCommit: "abc", Tasks: []Task{{ID: "T001", Status: record.TaskDone}, {ID: "T002", Status: record.TaskWaiting}}}
	cases := map[record.RunStatus]string{
		record.RunWaiting:     "T002 is a manual task: do it, then run `planx resume`.",
		record.RunInterrupted: "run `planx resume` to continue where the run stopped. To undo the whole run instead: `planx abort`.",
		record.RunAborted:     "the run was aborted: HEAD, the index and the work tree are back as they were before it.",
	}
	for status, want := range cases {
		l.Status = status
		if got := string(l.Render()); !strings.Contains(got, "- **Next step:** "+want+"\n") {
			t.Errorf("%s: no next step %q in summary:\n%s", status, want, got[strings.Index(got, "## Summary"):])
		}
	}
	l.Status = record.RunCompleted
	if strings.Contains(string(l.Render()), "Next step") {
		t.Error("completed run has a next step")
	}
	l.Status, l.NextStep = record.RunFailed, "call the owner"
	if !strings.Contains(string(l.Render()), "- **Next step:** call the owner\n") {
		t.Error("NextStep does not replace the default advice")
	}
	// The advice of a stop is not the advice once the run went past it.
	for _, status := range []record.RunStatus{record.RunCompleted, record.RunAborted, record.RunRunning} {
		l.Status = status
		if strings.Contains(string(l.Render()), "call the owner") {
			t.Errorf("%s run shows the next step of its stop", status)
		}
	}
}
