package drive

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/run/runstate"
)

// A state written by a planx without baselines reads with none; one with
// a baseline keeps its known failures.
func TestStateBaselineOptional(t *testing.T) {
	t.Parallel()
	var old runstate.State
	if err := json.Unmarshal([]byte(`{"run_id":"x","plan_path":"p.md","status":"failed"}`), &old); err != nil || old.Baseline != nil {
		t.Fatalf("old state: %v, baseline %+v", err, old.Baseline)
	}
	st := runstate.State{RunID: "x", Baseline: &runstate.Baseline{Commit: "abc", Known: map[string][]string{"test": {"calc TestSub"}}}}
	data, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	var back runstate.State
	if err := json.Unmarshal(data, &back); err != nil || back.Baseline == nil || !slices.Equal(back.Baseline.Known["test"], []string{"calc TestSub"}) {
		t.Fatalf("round trip: %v, %+v", err, back.Baseline)
	}
}

// The pinned judge keeps a gate's report setting in the run state.
func TestJudgeStateKeepsReport(t *testing.T) {
	t.Parallel()
	g := gates.Gate{Name: "unit", Command: "mvn test", Report: gates.Report{Kind: gates.ReportJUnit, Files: "target/surefire-reports/*.xml"}}
	j := &runstate.Pinned{Config: gates.Config{Gates: []gates.Gate{g}}, Gates: []gates.Gate{g}}
	data, err := json.Marshal(runstate.State{Pinned: j})
	if err != nil {
		t.Fatal(err)
	}
	var back runstate.State
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Pinned == nil || !reflect.DeepEqual(back.Pinned.Gates, j.Gates) || !reflect.DeepEqual(back.Pinned.Config.Gates, j.Config.Gates) {
		t.Errorf("judge after the state's round trip = %+v, want %+v", back.Pinned, j)
	}
}
