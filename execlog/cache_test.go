package execlog

import (
	"encoding/json"
	"hash/maphash"
	"reflect"
	"testing"
	"time"

	"github.com/planx-dev/planx/internal/record"
)

// fullTask has every list of a task non-empty, so that every field of
// every nested entry is reachable.
func fullTask() Task {
	at := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	return Task{ID: "T001", Label: "1.1", Title: "t", Status: record.TaskDone, Executor: "shell", Sandbox: "overlay",
		Outside: []string{"~/.x"}, Cost: record.Cost{In: 1, Out: 2, USD: 0.5, HasUSD: true}, Review: "pass", Agent: "a",
		Hidden: []string{"h"}, Commit: "abc", Files: []string{"f"},
		Commands: []Command{{Name: "step 1", Command: "true", ExitCode: 0, Duration: time.Second, Tail: "out"}},
		Gates: []Gate{{Name: "g", Command: "c", Passed: true, Duration: time.Second, Tail: "t", OutputPath: "p",
			Fixed: []string{"x"}, Tests: "1 passed", Known: []string{"k"}}},
		Started: at, Finished: at.Add(time.Minute), Failure: "f", Attempts: 1}
}

// Every field of a task, however deep, changes its fingerprint: a field
// added to Task, Command, Gate or record.Cost that sum leaves out fails
// here, before it could make a changed entry render as it was.
func TestSumCoversEveryField(t *testing.T) {
	seed := maphash.MakeSeed()
	base := fullTask()
	want := base.sum(seed)
	if c := copyTask(t, base); c.sum(seed) != want {
		t.Fatal("a copy of the task has another fingerprint")
	}
	leaves := 0
	for path, reach := range leavesOf("Task", reflect.TypeOf(base), func(v reflect.Value) reflect.Value { return v }) {
		c := copyTask(t, base)
		f := reach(reflect.ValueOf(&c).Elem())
		switch {
		case f.Type() == reflect.TypeOf(time.Time{}):
			f.Set(reflect.ValueOf(f.Interface().(time.Time).Add(time.Second)))
		case f.Kind() == reflect.String:
			f.SetString(f.String() + "x")
		case f.Kind() == reflect.Int || f.Kind() == reflect.Int64:
			f.SetInt(f.Int() + 1)
		case f.Kind() == reflect.Float64:
			f.SetFloat(f.Float() + 1)
		case f.Kind() == reflect.Bool:
			f.SetBool(!f.Bool())
		case f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.String:
			f.Set(reflect.Append(f, reflect.ValueOf("x").Convert(f.Type().Elem())))
		default:
			t.Fatalf("%s: a field of a type the test cannot change (%s): teach it", path, f.Type())
		}
		leaves++
		if c.sum(seed) == want {
			t.Errorf("%s: changing it leaves the fingerprint as it was", path)
		}
	}
	if leaves < 30 {
		t.Errorf("only %d fields reached", leaves)
	}
}

// leavesOf maps the path of every leaf field of typ (structs and lists of
// structs walked into, their first entry) to how to reach it from a value
// reached by reach.
func leavesOf(path string, typ reflect.Type, reach func(reflect.Value) reflect.Value) map[string]func(reflect.Value) reflect.Value {
	out := map[string]func(reflect.Value) reflect.Value{}
	switch {
	case typ == reflect.TypeOf(time.Time{}):
		out[path] = reach
	case typ.Kind() == reflect.Struct:
		for i := 0; i < typ.NumField(); i++ {
			if !typ.Field(i).IsExported() {
				continue
			}
			i := i
			for p, r := range leavesOf(path+"."+typ.Field(i).Name, typ.Field(i).Type, func(v reflect.Value) reflect.Value { return reach(v).Field(i) }) {
				out[p] = r
			}
		}
	case typ.Kind() == reflect.Slice && typ.Elem().Kind() == reflect.Struct:
		for p, r := range leavesOf(path+"[0]", typ.Elem(), func(v reflect.Value) reflect.Value { return reach(v).Index(0) }) {
			out[p] = r
		}
	default:
		out[path] = reach
	}
	return out
}

func copyTask(t *testing.T, in Task) Task {
	t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out Task
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// A log rendered and encoded again after its entries changed (in place,
// through TaskByID, as the runner changes them) gives the bytes of a log
// that never rendered: nothing stale comes out of the cache.
func TestCachedEntriesFollowChanges(t *testing.T) {
	l := sampleLog()
	l.Tasks = append(l.Tasks, fullTask())
	fresh := func() *Log {
		b, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		var c Log
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatal(err)
		}
		return &c
	}
	check := func(when string) {
		t.Helper()
		want := fresh()
		if got, w := string(l.Render()), string(want.Render()); got != w {
			t.Errorf("%s: the cached log renders\n%s\nwant\n%s", when, got, w)
		}
		got, err := l.AppendTasksJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		w, _ := json.Marshal(want.Tasks)
		if string(got) != string(w) {
			t.Errorf("%s: the cached tasks encode as\n%s\nwant\n%s", when, got, w)
		}
	}
	check("first")
	check("again, all cached")
	last := l.TaskByID("T001")
	last.Status, last.Commit = record.TaskFailed, ""
	last.Gates[0].Passed = false
	check("after a change in place")
	l.Tasks = append(l.Tasks, Task{ID: "T009", Title: "new", Status: record.TaskRunning, Gates: []Gate{{Name: "other", Passed: true}}})
	check("after a task with a new gate column")
}

// A log without tasks encodes them as an empty list.
func TestNoTasksJSON(t *testing.T) {
	got, err := (&Log{}).AppendTasksJSON(nil)
	if err != nil || string(got) != "[]" {
		t.Errorf("got %q, %v", got, err)
	}
}
