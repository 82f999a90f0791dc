package verify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	f.Save(SavedWatch{Task: "T001", Meta: w.Repo.Config().SnapshotMeta(), Watch: &Watch{Ignored: []string{"out/"}}, Mark: 7})
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
	f := WatchFile{Repo: w.Repo, RunID: "r1", Path: filepath.Join(t.TempDir(), "watch.json"),
		DepEnvs: func(string, []string) []string { return nil }}
	note := func() {
		f.Save(SavedWatch{Task: "T001", Guard: w.Repo.Config().Guard("r1"), Meta: w.Repo.Config().SnapshotMeta(), Watch: &Watch{}})
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
