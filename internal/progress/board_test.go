package progress

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
)

// clock is a time a test moves by hand; the redraws read it from their
// goroutine.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) get() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// boardTasks are a wave of three, T002 called by the plan's own ID.
func boardTasks() []*planparse.Task {
	return []*planparse.Task{{ID: "T001", Title: "Add a"}, {ID: "T002", Label: "1.2", Title: "Add b"}, {ID: "T003", Title: "Add c"}}
}

// wave plays a wave of ts on p as the executor does: announced, run
// together, phases in an order that is not the plan's, a permanent line,
// one task done in its slot, then landed.
func playWave(p *Progress, c *clock, ts []*planparse.Task) {
	for i, t := range ts {
		p.TaskStart(i+1, len(ts), t)
	}
	p.Println("planx: wave 1: T001 T002 T003 at once")
	p.Together(true)
	p.Step("T003", "agent attempt 1", "./agent.sh --fast\nsecond line")
	c.add(time.Second)
	p.Step("T001", "agent attempt 1", "./agent.sh")
	c.add(500 * time.Millisecond)
	p.GateStart("T002")(gates.Gate{Name: "test"})
	c.add(700 * time.Millisecond)
	p.Println("      T001 output: .git/planx/runs/r/T001-agent-1.log")
	p.Phase("T002", "waiting to land")
	c.add(1200 * time.Millisecond)
}

func newBoard(out *bytes.Buffer, c *clock, cols int) *Progress {
	p := New(Output{Out: out, Terminal: true})
	p.now, p.size, p.redraw = c.get, func() (int, int) { return cols, 24 }, time.Hour
	return p
}

// While a wave runs, a terminal shows one line per running task in plan
// order below the permanent lines, each with its phase and the phase's
// time; a permanent line goes above the block, never into it; a task
// landed leaves it; the block goes when the wave has landed.
func TestBoardShowsEachRunningTask(t *testing.T) {
	c := &clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	var out bytes.Buffer
	p := newBoard(&out, c, 80)
	playWave(p, c, boardTasks())

	scr := &screen{cols: 80}
	scr.write(t, out.String())
	above := []string{
		"[1/3] T001 Add a",
		"[2/3] 1.2 (T002) Add b",
		"[3/3] T003 Add c",
		"planx: wave 1: T001 T002 T003 at once",
		"      T001 output: .git/planx/runs/r/T001-agent-1.log",
	}
	want := append(append([]string{}, above...),
		"T001 · agent attempt 1: ./agent.sh · 1.2s",
		"1.2 (T002) · waiting to land · 0s",
		"T003 · agent attempt 1: ./agent.sh --fast · 2.2s",
	)
	if got := scr.lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("screen:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if scr.row != len(want) || scr.col != 0 {
		t.Errorf("cursor at %d:%d, want the start of the line below the board (%d:0)", scr.row, scr.col, len(want))
	}

	// Landed: the task's line goes, its permanent line goes above.
	out.Reset()
	p.TaskDone(boardTasks()[1], gitops.SHA("0123456789abcdef0123456789abcdef01234567"))
	if !strings.HasPrefix(out.String(), "\r\x1b[3A") {
		t.Errorf("a 3-line board is not left by 3 lines up: %q", out.String())
	}
	scr.write(t, out.String())
	want = append(append([]string{}, above...),
		"      ✓ T002 committed 0123456",
		"T001 · agent attempt 1: ./agent.sh · 2.4s", // redrawn 1.2s later
		"T003 · agent attempt 1: ./agent.sh --fast · 3.4s",
	)
	if got := scr.lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("screen after T002 landed:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	out.Reset()
	p.Together(false)
	if !strings.HasPrefix(out.String(), "\r\x1b[2A") {
		t.Errorf("a 2-line board is not left by 2 lines up: %q", out.String())
	}
	scr.write(t, out.String())
	want = want[:len(want)-2]
	if got := scr.lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("screen after the wave:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if scr.row != len(want) || scr.col != 0 {
		t.Errorf("cursor at %d:%d after the wave, want %d:0", scr.row, scr.col, len(want))
	}
	out.Reset()
	p.Println("planx: done")
	if got := out.String(); got != "\r\x1b[Kplanx: done\n" {
		t.Errorf("a line after the wave: %q, want the serial path's", got)
	}
}

// Every move up goes back exactly over the block drawn before it: a
// permanent line printed over a board of any height, and a block that
// shrinks, leave nothing of the old block behind.
func TestBoardMovesUpByItsHeight(t *testing.T) {
	c := &clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	var out bytes.Buffer
	p := newBoard(&out, c, 40)
	p.Together(true)
	scr := &screen{cols: 40}
	for _, id := range []planparse.TaskID{"T001", "T002", "T003"} {
		p.Phase(id, "step 1/1: make")
	}
	p.Println("a permanent line long enough to wrap on a screen of forty columns")
	p.TaskDone(&planparse.Task{ID: "T001"}, "0123456789abcdef0123456789abcdef01234567")
	p.Phase("T002", "gate test")
	scr.write(t, out.String())
	// Up over the block of 1, then 2 lines as tasks start; over 3 to
	// clear them for the permanent line and again to print it; the same
	// for T001's, after which the block has 2 lines; over 2 to redraw it.
	if want := []int{1, 2, 3, 3, 3, 3, 2}; !slices.Equal(scr.ups, want) {
		t.Errorf("moves up %v, want %v", scr.ups, want)
	}
	want := []string{
		"a permanent line long enough to wrap on",
		"a screen of forty columns",
		"      ✓ T001 committed 0123456",
		"T002 · gate test · 0s",
		"T003 · step 1/1: make · 0s",
	}
	if got := scr.lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("screen:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A block that shrinks with no line above it clears what it leaves.
	out.Reset()
	p.PhaseEnd("T003")
	scr.write(t, out.String())
	if got := scr.ups[len(scr.ups)-2:]; !slices.Equal(got, []int{2, 2}) {
		t.Errorf("moves up %v to shrink a block of 2, want [2 2]", got)
	}
	if got := scr.lines(); strings.Join(got, "\n") != strings.Join(want[:4], "\n") {
		t.Fatalf("screen:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want[:4], "\n"))
	}
}

// Off a terminal, with --json, or in CI (not a terminal then) nothing is
// drawn: the wave's lines are permanent and name their task.
func TestBoardNeverDrawsOffATerminal(t *testing.T) {
	c := &clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	var plain bytes.Buffer
	p := New(Output{Out: &plain})
	p.now = c.get
	playWave(p, c, boardTasks())
	p.Together(false)
	want := "[1/3] T001 Add a\n[2/3] 1.2 (T002) Add b\n[3/3] T003 Add c\nplanx: wave 1: T001 T002 T003 at once\n" +
		"      T003 agent attempt 1: ./agent.sh --fast\n      T001 agent attempt 1: ./agent.sh\n" +
		"      T001 output: .git/planx/runs/r/T001-agent-1.log\n"
	if plain.String() != want {
		t.Errorf("plain output:\n%q\nwant:\n%q", plain.String(), want)
	}

	var js, progress bytes.Buffer
	p = New(Output{Out: &js, Err: &progress, JSON: true, Terminal: true})
	p.now = c.get
	playWave(p, c, boardTasks())
	p.Together(false)
	for name, b := range map[string]*bytes.Buffer{"events": &js, "progress": &progress} {
		if strings.ContainsAny(b.String(), "\r\x1b") || strings.Contains(b.String(), " · ") {
			t.Errorf("--json %s has live lines:\n%q", name, b.String())
		}
	}
	if !strings.Contains(progress.String(), "T001 agent attempt 1: ./agent.sh\n") {
		t.Errorf("--json progress lacks the task's line:\n%s", progress.String())
	}
}

// A board line never wraps: it is cut to the terminal's width (one
// column spare), keeping its time.
func TestBoardLinesFitTheTerminal(t *testing.T) {
	c := &clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	var out bytes.Buffer
	p := newBoard(&out, c, 32)
	p.Together(true)
	p.Step("T001", "step 1/1", "npm run build -- --mode production --verbose")
	c.add(61500 * time.Millisecond)
	p.Phase("T002", "gate test")
	scr := &screen{cols: 32}
	scr.write(t, out.String())
	got := scr.lines()
	want := []string{"T001 · step 1/1: npm… · 1m1.5s", "T002 · gate test · 0s"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("screen:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, l := range got {
		if n := utf8.RuneCountInString(l); n > 31 {
			t.Errorf("%q is %d columns on a screen of 32", l, n)
		}
	}
}

// A board taller than the terminal would leave the screen at its top,
// where the cursor cannot go back up: it shows what fits with the line
// the cursor rests on, and counts the rest.
func TestBoardFitsTheTerminalsHeight(t *testing.T) {
	c := &clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	var out bytes.Buffer
	p := newBoard(&out, c, 40)
	p.size = func() (int, int) { return 40, 5 }
	p.Together(true)
	for i := 1; i <= 6; i++ {
		p.Phase(planparse.TaskID(fmt.Sprintf("T%03d", i)), "gate test")
	}
	p.Println("done")
	scr := &screen{cols: 40}
	scr.write(t, out.String())
	want := []string{"done", "T001 · gate test · 0s", "T002 · gate test · 0s", "T003 · gate test · 0s", "… and 3 more running"}
	if got := scr.lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("screen:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if m := slices.Max(scr.ups); m > 4 {
		t.Errorf("moved up %d lines on a screen of 5", m)
	}
}

// The board's times are redrawn as they pass, not only when a phase
// changes.
func TestBoardRedrawsItsTimes(t *testing.T) {
	c := &clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	var out bytes.Buffer
	p := newBoard(&out, c, 80)
	p.redraw = 5 * time.Millisecond
	p.Together(true)
	p.Phase("T001", "gate test")
	c.add(3 * time.Second)
	deadline := time.Now().Add(5 * time.Second)
	for {
		p.mu.Lock()
		got := out.String()
		p.mu.Unlock()
		if strings.Contains(got, "T001 · gate test · 3s") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the board was not redrawn with its time:\n%q", got)
		}
		time.Sleep(5 * time.Millisecond)
	}
	p.Together(false)
	p.mu.Lock()
	stopped := p.stopped == nil
	p.mu.Unlock()
	if !stopped {
		t.Errorf("the redraws go on after the wave")
	}
}

// Followed output (--follow) is permanent lines above the board, each
// naming its task.
func TestBoardKeepsFollowedLinesAbove(t *testing.T) {
	c := &clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	var out bytes.Buffer
	p := New(Output{Out: &out, Terminal: true, Follow: true})
	p.now, p.size, p.redraw = c.get, func() (int, int) { return 80, 24 }, time.Hour
	p.Together(true)
	p.Step("T001", "agent attempt 1", "./agent.sh")
	p.Step("T002", "step 1/1", "make")
	w, flush := p.Live("T002")
	_, _ = w.Write([]byte("compiling\nlinking"))
	flush()
	scr := &screen{cols: 80}
	scr.write(t, out.String())
	want := []string{
		"  T002 │ compiling",
		"  T002 │ linking",
		"T001 · agent attempt 1: ./agent.sh · 0s",
		"T002 · step 1/1: make · 0s",
	}
	if got := scr.lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("screen:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	p.Together(false)
}

// A line for something no task of the plan runs (a wave's integration
// gate) comes below the tasks' lines and goes when it has run.
func TestBoardIntegrationGateLine(t *testing.T) {
	c := &clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	var out bytes.Buffer
	p := newBoard(&out, c, 80)
	ts := boardTasks()
	for i, tk := range ts {
		p.TaskStart(i+1, len(ts), tk)
	}
	p.Together(true)
	p.Phase("T003", "waiting to land")
	p.GateStart("wave1-T003")(gates.Gate{Name: "test"})
	p.Phase("T001", "waiting to land")
	scr := &screen{cols: 80}
	scr.write(t, out.String())
	want := []string{"T001 · waiting to land · 0s", "T003 · waiting to land · 0s", "wave1-T003 · gate test · 0s"}
	if got := scr.lines()[3:]; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("board:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	out.Reset()
	p.PhaseEnd("wave1-T003")
	scr.write(t, out.String())
	if got := scr.lines()[3:]; strings.Join(got, "\n") != strings.Join(want[:2], "\n") {
		t.Fatalf("board after the gate:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want[:2], "\n"))
	}
	p.Together(false)
}
