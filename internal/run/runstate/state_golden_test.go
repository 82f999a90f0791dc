package runstate

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

var updateState = flag.Bool("update-state", false, "rewrite testdata/state.golden.json")

// TestStateJSONGolden freezes the run state's JSON: resume reads states an
// older planx wrote, so a field renamed, retyped or dropped (a refactor
// moving State to a package of its own included) must show up here, not in
// a user's stopped run. Every field, nested ones too, is set; a new field
// changes the golden file, which is then regenerated on purpose:
//
//	go test ./runstate -run TestStateJSONGolden -update-state
func TestStateJSONGolden(t *testing.T) {
	var st State
	fill(reflect.ValueOf(&st).Elem(), 0)
	got, err := json.MarshalIndent(&st, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", "state.golden.json")
	if *updateState {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the run state's JSON changed (a resume of a run an older planx stopped reads the old form):\n%s\nIf the change is meant and old states still load, regenerate with -update-state.", got)
	}
	// The golden file loads into today's State and says the same again:
	// no key of it is unknown, none is lost.
	var back State
	dec := json.NewDecoder(bytes.NewReader(want))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&back); err != nil {
		t.Fatalf("the golden state no longer loads: %v", err)
	}
	again, err := json.MarshalIndent(&back, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(append(again, '\n'), want) {
		t.Errorf("the golden state does not survive a load and save:\n%s", again)
	}
}

// TestStateOldFormLoads loads a state as the first planx that kept one
// wrote it (no judge, no marks, no wave): a resume of it must still work.
func TestStateOldFormLoads(t *testing.T) {
	old := `{"run_id":"20250101-000000-abcdef","plan_path":"memory-bank/plan/x.md","topic":"x",
"branch":"main","orig_head":"` + string(sha40('a')) + `","base":"` + string(sha40('b')) + `",
"status":"failed","current":"T002","phase":"gates","reason":"gate test failed",
"plan":[{"id":"T001","hash":"h1"},{"id":"T002","hash":"h2"}],"to_run":["T001","T002"],
"started":"2025-01-01T00:00:00Z","updated":"2025-01-01T00:01:00Z","options":{},"log":null}`
	var st State
	if err := json.Unmarshal([]byte(old), &st); err != nil {
		t.Fatal(err)
	}
	if st.Current != "T002" || len(st.Plan) != 2 || st.Pinned != nil || st.OrigMarks != nil || len(st.Wave) != 0 {
		t.Errorf("old state read as %+v", st)
	}
}

func sha40(c byte) string { return string(bytes.Repeat([]byte{c}, 40)) }

// fill sets every exported field reachable from v to a sample value:
// strings "x", numbers 1, true, one-element slices and maps, a fixed time.
// Types that marshal themselves are left zero: their form is their own.
func fill(v reflect.Value, depth int) {
	if depth > 8 || !v.CanSet() {
		return
	}
	if v.Type() == reflect.TypeOf(time.Time{}) {
		v.Set(reflect.ValueOf(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)))
		return
	}
	if _, ok := v.Addr().Interface().(json.Marshaler); ok {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0), depth+1)
		v.Set(s)
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			fill(v.Index(i), depth+1)
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k := reflect.New(v.Type().Key()).Elem()
		fill(k, depth+1)
		e := reflect.New(v.Type().Elem()).Elem()
		fill(e, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1)
			}
		}
	}
}
