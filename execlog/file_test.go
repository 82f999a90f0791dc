package execlog

import (
	"encoding/json"
	"github.com/planx-dev/planx/internal/record"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteFileAtomic(t *testing.T) {
	root := t.TempDir()
	l := sampleLog()
	for i := 0; i < 2; i++ { // the second write replaces the first
		if i == 1 {
			l.Status = record.RunCompleted
		}
		if err := l.WriteFile(root); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(root, filepath.FromSlash(l.Path))
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(l.Render()) {
		t.Error("file content differs from Render")
	}
	dir := filepath.Dir(path)
	if names := dirNames(t, dir); !reflect.DeepEqual(names, []string{filepath.Base(path)}) {
		t.Errorf("directory holds %q, want only the log (no temporary files)", names)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm&0o044 != 0o044 {
		t.Errorf("mode %v: the log is a repository file and must be readable by all", perm)
	}
}

func TestWriteFileFailureLeavesNoTemp(t *testing.T) {
	root := t.TempDir()
	l := &Log{Path: "logs/run.md", Title: "x"}
	// A directory where the file should be makes the rename fail after the
	// temporary file was written.
	if err := os.MkdirAll(filepath.Join(root, "logs", "run.md", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := l.WriteFile(root); err == nil {
		t.Fatal("no error writing over a directory")
	}
	if names := dirNames(t, filepath.Join(root, "logs")); !reflect.DeepEqual(names, []string{"run.md"}) {
		t.Errorf("logs/ holds %q after a failed write, want only the blocking directory", names)
	}
	if err := (&Log{}).WriteFile(root); err == nil {
		t.Error("no error for a log without a path")
	}
}

// The log travels inside the run state (.git/planx/state.json) between a
// stop and `planx resume`: JSON must give back the same log.
func TestJSONRoundTrip(t *testing.T) {
	l := sampleLog()
	l.NextStep = "ask Ana about the French wording"
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	var back *Log
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, l) {
		t.Errorf("round trip changed the log:\n got %+v\nwant %+v", back, l)
	}
	if string(back.Render()) != string(l.Render()) {
		t.Error("reloaded log renders differently")
	}
}

func TestRelativePaths(t *testing.T) {
	in := "whole output: `/work/repo/.git/planx/runs/r1/T002-test.log`\n" +
		"ran in /work/repo (cd /work/repo && make) in /work/repo.\n" +
		"/work/repo2/x and /x/work/repo/y stay; /work/repo.git too\n" +
		"cache /home/ada/.cache/go-build/x, home /home/ada\n"
	want := "whole output: `.git/planx/runs/r1/T002-test.log`\n" +
		"ran in . (cd . && make) in ..\n" +
		"/work/repo2/x and /x/work/repo/y stay; /work/repo.git too\n" +
		"cache ~/.cache/go-build/x, home ~\n"
	if got := string(relativePaths([]byte(in), "/work/repo", "/home/ada")); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestWriteHasNoMachinePaths(t *testing.T) {
	root := t.TempDir()
	l := &Log{Path: "log.md", Tasks: []Task{{ID: "T001", Status: "failed",
		Failure: "plan drift in " + root + "/plan.md:\n\n- old\n+ new\n",
		Gates:   []Gate{{Name: "test", Tail: "x", OutputPath: filepath.Join(root, ".git/planx/runs/r/T001-test.log")}}}}}
	if err := l.Write(root, false); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "log.md"))
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	if strings.Contains(got, root) {
		t.Errorf("the log holds %s:\n%s", root, got)
	}
	for _, want := range []string{"**Failure:** plan drift in plan.md:\n\n```text\n- old\n+ new\n```\n", "(whole output: `.git/planx/runs/r/T001-test.log`)"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}
