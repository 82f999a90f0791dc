package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/planparse"
)

// On a terminal the status line (task n/N, current step, elapsed) is redrawn
// in place and cleared before permanent lines; elsewhere only plain lines.
func TestProgressTerminalAndPlain(t *testing.T) {
	task := &planparse.Task{ID: "T002", Title: "Add b"}
	var tty bytes.Buffer
	p := New(Output{Out: &tty, Terminal: true, Color: true})
	p.redraw = 20 * time.Millisecond // a few redraws however loaded the machine
	p.TaskStart(2, 3, task)
	p.Step("T001", "step 1/1", "echo b > b.txt")
	time.Sleep(300 * time.Millisecond)
	p.TaskDone(task, gitops.SHA("0123456789abcdef0123456789abcdef01234567"))
	got := tty.String()
	for _, want := range []string{"[2/3] T002 Add b\n", "\r\x1b[K[2/3] T002 · step 1/1: echo b > b.txt", "\x1b[32m✓\x1b[0m committed 0123456"} {
		if !strings.Contains(got, want) {
			t.Errorf("terminal output lacks %q:\n%q", want, got)
		}
	}
	if strings.Count(got, "step 1/1: echo b") < 2 {
		t.Errorf("status line not redrawn while the step runs:\n%q", got)
	}

	var plain bytes.Buffer
	p = New(Output{Out: &plain})
	p.TaskStart(2, 3, task)
	p.Step("T001", "step 1/1", "echo b > b.txt")
	p.TaskDone(task, gitops.SHA("0123456789abcdef0123456789abcdef01234567"))
	if strings.ContainsAny(plain.String(), "\r\x1b") {
		t.Errorf("plain output has terminal control codes:\n%q", plain.String())
	}
	if want := "[2/3] T002 Add b\n      step 1/1: echo b > b.txt\n      ✓ committed 0123456\n"; plain.String() != want {
		t.Errorf("plain output:\n%q\nwant:\n%q", plain.String(), want)
	}
}

// Plan text in progress lines is escaped: a title or step cannot redraw the
// line it is printed on.
func TestProgressEscapesPlanText(t *testing.T) {
	task := &planparse.Task{ID: "T001", Title: "Build \x1b[2K\x1b[1Aall good\u202e", Body: "manual \x1b[31mred\n", Line: 1}
	var out bytes.Buffer
	p := New(Output{Out: &out})
	p.TaskStart(1, 1, task)
	p.Step("T001", "step 1/1", "rm -rf ~/x #\x1b[2Kmake build")
	p.TaskStopped(task, record.RunFailed, "step failed \x1b]0;title\x07", "line \x1b[1Aup\n", nil, "fix it")
	got := out.String()
	if strings.ContainsAny(got, "\x1b\x07\u202e") {
		t.Errorf("raw control characters printed:\n%q", got)
	}
	for _, want := range []string{`Build \x1b[2K\x1b[1Aall good\u202e`, `rm -rf ~/x #\x1b[2Kmake build`, `step failed \x1b]0;title\x07`, `│ line \x1b[1Aup`} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

// While a gate runs the status line names it, with its own time, not the
// step that ran before it.
func TestProgressNamesTheRunningGate(t *testing.T) {
	if got := phaseStatus("[1/1] T001 · step 1/1: printf x", "gate test"); got != "[1/1] T001 · gate test" {
		t.Errorf("phaseStatus = %q", got)
	}
	if got := phaseStatus("[1/1] T001", "gate test"); got != "[1/1] T001 · gate test" {
		t.Errorf("phaseStatus = %q", got)
	}
	task := &planparse.Task{ID: "T001", Title: "Break Sub"}
	var tty bytes.Buffer
	p := New(Output{Out: &tty, Terminal: true})
	p.TaskStart(1, 1, task)
	p.Step("T001", "step 1/1", "printf x")
	time.Sleep(50 * time.Millisecond)
	p.GateStart("T001")(gates.Gate{Name: "test"})
	time.Sleep(300 * time.Millisecond)
	p.mu.Lock()
	got := tty.String()
	p.mu.Unlock()
	last := got[strings.LastIndex(got, "\r\x1b[K"):]
	if !strings.HasPrefix(last, "\r\x1b[K[1/1] T001 · gate test ") || strings.Contains(last, "step") {
		t.Errorf("last status line %q, want the gate's", last)
	}
	p.clearLive()

	var plain bytes.Buffer
	p = New(Output{Out: &plain})
	p.GateStart("T001")(gates.Gate{Name: "test"})
	if plain.Len() != 0 {
		t.Errorf("a gate's start printed %q off a terminal", plain.String())
	}
}

func TestExpandTabs(t *testing.T) {
	if got := expandTabs("FAIL\tcalc\t0.003s"); got != "FAIL    calc    0.003s" {
		t.Errorf("%q", got)
	}
}
