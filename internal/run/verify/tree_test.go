package verify

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/run/gaterun"
	"github.com/planx-dev/planx/planparse"
)

// The prompt names the plan, the configuration and the log's directory
// always, and the gates' scripts and what they run only when they exist.
func TestGuarded(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"ci/test.sh", "scripts/lib.sh"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte("true\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := Rules{Plan: "plan.md", Log: "runs/x/log.md",
		Gates:   []gates.Gate{{Name: "t", Command: "sh ci/test.sh && sh ci/missing.sh"}},
		Reached: gaterun.Reach{"scripts/lib.sh": "run by gate t through ci/test.sh", "scripts/gone.sh": "run by gate t through ci/test.sh"}}
	want := []string{"plan.md", gates.ConfigFile, "runs/x/", "ci/test.sh", "scripts/lib.sh"}
	if got := r.Guarded(root); !slices.Equal(got, want) {
		t.Errorf("Guarded = %q, want %q", got, want)
	}
}

// A task's files outside its declared ones are logged as allowed, said,
// and named in the commit's warning.
func TestOutside(t *testing.T) {
	d := &desk{}
	c := Tree{Desk: d}
	got := c.Outside(&planparse.Task{ID: "T1"}, []string{"a.go", "b.go"}, nil)
	if got != "outside-declared=a.go,b.go" {
		t.Errorf("Outside = %q", got)
	}
	msg := OutsideMessage([]string{"a.go", "b.go"})
	if len(d.logged) != 1 || d.logged[0] != (issue{"T1", msg, "allowed: --strict-files not set"}) || !slices.Equal(d.said, []string{msg}) {
		t.Errorf("logged %+v, said %q", d.logged, d.said)
	}
	// A person's file among them is said to be theirs.
	d = &desk{}
	c = Tree{Desk: d}
	c.Outside(&planparse.Task{ID: "T1"}, []string{"a.go", "b.go"}, []string{"b.go", "c.go"})
	msg += " (changed by hand after the stop: b.go)"
	if len(d.logged) != 1 || d.logged[0].msg != msg {
		t.Errorf("logged %+v, want %q", d.logged, msg)
	}
}

type issue struct {
	id              planparse.TaskID
	msg, resolution string
}

// desk is a hall.Desk that keeps what it is told; nobody answers it.
type desk struct {
	logged []issue
	said   []string
}

func (d *desk) Issue(id planparse.TaskID, msg, res string) {
	d.logged = append(d.logged, issue{id, msg, res})
}
func (d *desk) Say(_ planparse.TaskID, msg string) { d.said = append(d.said, msg) }
func (d *desk) Ask(string) bool                    { return false }
func (d *desk) Save() error                        { return nil }
func (d *desk) Now() time.Time                     { return time.Unix(0, 0) }

// A resume takes an interrupted attempt's git directory notes, and a
// judged attempt's mark and runner prints instead (its .git was judged).
func TestResume(t *testing.T) {
	var a Attempt
	a.Resume(nil)
	if a.Watch != nil || a.Rejudged {
		t.Fatalf("nothing saved, yet %+v", a)
	}
	w := &Watch{Ignored: []string{"node_modules"}}
	meta := &MetaSnapshot{}
	a.Resume(&SavedWatch{Watch: w, Guard: Guard("g"), Meta: meta, Mark: 7})
	if a.Watch != w || a.Guard != "g" || a.Meta != meta || a.Mark != 0 || a.Rejudged {
		t.Errorf("interrupted: %+v", a)
	}
	var b Attempt
	b.Resume(&SavedWatch{Watch: w, Guard: Guard("g"), Mark: 7, Judged: true, Left: map[string]string{"x": "y"}})
	if b.Watch != w || b.Guard != "" || b.Mark != 7 || !b.Rejudged || b.Left["x"] != "y" {
		t.Errorf("judged: %+v", b)
	}
	b.NoteMark(0)
	if b.Mark != 7 {
		t.Errorf("a cleared mark forgot the agent's: %d", b.Mark)
	}
	b.NoteMark(9)
	if b.Mark != 9 {
		t.Errorf("mark = %d, want 9", b.Mark)
	}
}
