package verify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/ledger/records"
)

// The saved watch is the interrupted attempt's of one task: another task's
// is none, a loaded one says the log was rewritten, a dropped one is gone.
func TestWatchFileSaveLoadDrop(t *testing.T) {
	t.Parallel()
	w, _ := workIn(t, map[string]string{"a.go": "package a\n"})
	f := WatchFile{Repo: w.Repo, RunID: "r1", Path: filepath.Join(t.TempDir(), "run", "watch.json")}
	if f.Load("T001") != nil {
		t.Fatal("a watch loaded before any was saved")
	}
	f.Save(SavedWatch{Task: "T001", Meta: SnapshotMeta(w.Repo), Watch: &Watch{Ignored: []string{"out/"}}, Mark: 7})
	got := f.Load("T001")
	if got == nil || got.Task != "T001" || got.Mark != 7 || len(got.Watch.Ignored) != 1 || !got.Watch.Resumed || got.Judged {
		t.Fatalf("loaded %+v", got)
	}
	if f.Load("T002") != nil {
		t.Error("another task's watch loaded")
	}
	f.Drop()
	if f.Load("T001") != nil {
		t.Error("a dropped watch loaded")
	}
	// A watch without what the judge needs is none.
	f.Save(SavedWatch{Task: "T001"})
	if f.Load("T001") != nil {
		t.Error("a watch without snapshot loaded")
	}
}

// An attempt planx did not see end is judged against what was noted before
// it: nothing changed says nothing; a hook it planted is named and undone.
// Either way the watch is then that of a judged attempt, checked once.
func TestWatchFileCheckInterrupted(t *testing.T) {
	t.Parallel()
	w, _ := workIn(t, map[string]string{"a.go": "package a\n"})
	f := WatchFile{Repo: w.Repo, RunID: "r1", Path: filepath.Join(t.TempDir(), "watch.json")}
	note := func() {
		f.Save(SavedWatch{Task: "T001", Guard: GuardOf(w.Repo, "r1"), Meta: SnapshotMeta(w.Repo), Watch: &Watch{}})
	}
	note()
	if what := f.CheckInterrupted("T001"); what != "" {
		t.Errorf("nothing changed, found %q", what)
	}
	if s := f.Load("T001"); s == nil || !s.Judged {
		t.Errorf("checked watch not kept as judged: %+v", s)
	}

	note()
	hook := filepath.Join(w.Repo.GitDir, "hooks", "pre-commit")
	if err := os.MkdirAll(filepath.Dir(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hook, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	what := f.CheckInterrupted("T001")
	if !strings.Contains(what, "the interrupted attempt wrote to the git directory (") || !strings.Contains(what, "planx undid it from its snapshot: .git/hooks/pre-commit (removed)") {
		t.Errorf("planted hook: %q", what)
	}
	if _, err := os.Stat(hook); !os.IsNotExist(err) {
		t.Errorf("planted hook not undone: %v", err)
	}
	if what := f.CheckInterrupted("T001"); what != "" {
		t.Errorf("a judged watch checked again: %q", what)
	}
}

// An interrupted attempt that changed an installed test runner in one of
// the ignored directories noted before it is named: the watch's ignored
// entries say where the runners live.
func TestWatchFileCheckInterruptedRunners(t *testing.T) {
	w, _ := workIn(t, map[string]string{"a.go": "package a\n"})
	gittest.WriteFile(t, w.Root, "node_modules/jest-circus/run.js", "v1\n")
	mark, err := records.Of(w.Repo).Mark()
	if err != nil {
		t.Fatal(err)
	}
	f := WatchFile{Repo: w.Repo, RunID: "r1", Path: filepath.Join(t.TempDir(), "watch.json")}
	f.Save(SavedWatch{Task: "T001", Guard: GuardOf(w.Repo, "r1"), Meta: SnapshotMeta(w.Repo),
		Watch: &Watch{Ignored: []string{"node_modules/"}}, Mark: mark})
	gittest.WriteFile(t, w.Root, "node_modules/jest-circus/run.js", "v2\n")
	what := f.CheckInterrupted("T001")
	if !strings.Contains(what, "the interrupted attempt changed an installed test runner or library, which git does not track (node_modules/jest-circus/run.js)") {
		t.Errorf("changed runner: %q", what)
	}
	if s := f.Load("T001"); s == nil || !s.Judged || s.Left["node_modules/jest-circus/run.js"] == "" {
		t.Errorf("the judged watch does not keep the runner as the attempt left it: %+v", s)
	}
}
