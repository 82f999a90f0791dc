package runstate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/planparse"
)

func sampleState() *State {
	at := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	return &State{RunID: "r1", PlanPath: "plan.md", Status: record.RunRunning, Current: "T002", Phase: PhaseExecute,
		Plan:    []PlannedTask{{ID: "T001", Hash: "a"}, {ID: "T002", Hash: "b"}},
		ToRun:   []planparse.TaskID{"T001", "T002"},
		Started: at, Wave: []planparse.TaskID{"T002"},
		Log: &execlog.Log{Path: "log.md", RunID: "r1", Started: at, Status: record.RunRunning,
			Issues: []execlog.Issue{{Task: "T001", What: "w"}},
			Tasks: []execlog.Task{{ID: "T001", Title: "one", Status: record.TaskDone, Commit: "c1", Started: at},
				{ID: "T002", Title: "two", Status: record.TaskRunning, Started: at}}}}
}

// reload saves st and loads it back, compared without the encodings a
// save keeps.
func reload(t *testing.T, st *State) *State {
	t.Helper()
	repo := openRepo(t)
	if err := st.Save(repo); err != nil {
		t.Fatal(err)
	}
	back, err := Load(repo)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

func sameState(t *testing.T, when string, got, want *State) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("%s: loaded\n%s\nwant\n%s", when, g, w)
	}
}

// What a save writes loads back as it was, also after the plan's tasks,
// the tasks to run and the log's entries changed in place between saves:
// no encoding kept from an earlier save is written for a changed part.
func TestSaveLoadFollowsChanges(t *testing.T) {
	st := sampleState()
	sameState(t, "first save", reload(t, st), st)
	st.Plan[1].Hash = "b2"
	st.ToRun = st.ToRun[1:]
	st.Log.TaskByID("T002").Status = record.TaskDone
	st.Log.Issues[0].Resolution = "fixed"
	sameState(t, "after changes in place", reload(t, st), st)
	st.Plan, st.ToRun, st.Log = nil, nil, nil
	back := reload(t, st)
	sameState(t, "without plan and log", back, st)
	if back.Log != nil || back.Plan != nil {
		t.Errorf("nil parts came back: %+v", back)
	}
}

// The file is the state, indented, then the bulk: a person (or a test)
// reads the state's fields in the first value; a reader of the first value
// alone names the run.
func TestSaveFileShape(t *testing.T) {
	repo := openRepo(t)
	st := sampleState()
	if err := st.Save(repo); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(Path(repo))
	if err != nil {
		t.Fatal(err)
	}
	head, rest, ok := strings.Cut(string(b), "\n}\n")
	if !ok || !strings.Contains(head, "\n  \"wave\": [\n    \"T002\"\n  ]") || strings.Contains(head, "\"log_tasks\"") {
		t.Errorf("the first value is not the indented state:\n%s", b)
	}
	if !strings.HasPrefix(rest, "{\"plan\":[{\"id\":\"T001\"") || strings.Count(rest, "\n") != 1 {
		t.Errorf("the second value is not the compact bulk:\n%s", rest)
	}
	if got := RunsElsewhere(repo); len(got) != 0 {
		t.Errorf("its own state counted as elsewhere: %v", got)
	}
}

// A state file written before the split (one value holding everything)
// loads as it was.
func TestLoadOneValue(t *testing.T) {
	repo := openRepo(t)
	st := sampleState()
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(Path(repo)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(Path(repo), b, 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := Load(repo)
	if err != nil {
		t.Fatal(err)
	}
	sameState(t, "one value", back, st)
	if !reflect.DeepEqual(back.Log.Tasks, st.Log.Tasks) {
		t.Error("the log's entries differ")
	}
}

// The plan's fingerprint covers each field of a planned task.
func TestPlannedTaskFields(t *testing.T) {
	if n := reflect.TypeOf(PlannedTask{}).NumField(); n != 2 {
		t.Errorf("PlannedTask has %d fields: sumPlan (save.go) hashes ID and Hash, hash the new one too", n)
	}
}
