package progress

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// The live lines of a terminal: the status line of the one task running
// (the serial path), or while a wave's tasks run together the board of
// one line per task. Both are redrawn every 250 ms by tick and whenever
// a phase changes, and never drawn off a terminal (plain lines, --json,
// CI), where permanent lines say the same.

// Println prints a permanent line: above the board while tasks run
// together, else clearing the status line first on a terminal.
func (p *Progress) Println(format string, args ...any) {
	line := fmt.Sprintf(format+"\n", args...)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && (p.together || p.board.drawn > 0) {
		p.drawBoardLocked(line)
		return
	}
	if p.tty {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
	fmt.Fprint(p.w, line)
	if p.tty && p.status != "" {
		p.drawLocked()
	}
}

// setStatus puts s on the status line, its clock restarted; never while
// tasks run together, whose lines are the board's.
func (p *Progress) setStatus(s string) {
	if !p.tty {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.together {
		return
	}
	p.status, p.since = s, p.now()
	p.tickingLocked(true)
	p.drawLocked()
}

// tickingLocked starts the redraws every p.redraw, unless they run, or
// stops them.
func (p *Progress) tickingLocked(on bool) {
	switch {
	case on && p.stopped == nil:
		p.stopped = make(chan struct{})
		go p.tick(p.stopped)
	case !on && p.stopped != nil:
		close(p.stopped)
		p.stopped = nil
	}
}

func (p *Progress) tick(stop chan struct{}) {
	t := time.NewTicker(p.redraw)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			p.mu.Lock()
			switch {
			case p.together:
				p.drawBoardLocked("")
			case p.status != "":
				p.drawLocked()
			}
			p.mu.Unlock()
		}
	}
}

func (p *Progress) drawLocked() {
	fmt.Fprintf(p.w, "\r\x1b[K%s %s", p.status, p.paint("2", elapsed(p.now().Sub(p.since))))
}

// drawBoardLocked prints perm (or nothing) above the board, redrawn.
func (p *Progress) drawBoardLocked(perm string) {
	cols, height := p.size()
	_, _ = io.WriteString(p.w, p.board.frame(perm, p.board.lines(p.now(), cols, height, p.paint)))
}

// clearLive takes the live lines off the screen: the status line, the
// board and its tasks.
func (p *Progress) clearLive() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tickingLocked(false)
	if p.tty && p.status != "" {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
	p.status = ""
	p.board.rows = nil
	if p.board.drawn > 0 {
		_, _ = io.WriteString(p.w, p.board.frame("", nil))
	}
}

// Together says whether several tasks run at once from now on (a
// parallel wave, until it has landed): their lines are then printed as
// they come, each naming its task, and a terminal shows each running
// task's phase on a board of its own lines in place of the status line.
func (p *Progress) Together(on bool) {
	if !on {
		p.clearLive()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.together = on
	if on && p.tty && p.status != "" {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.status = ""
		p.tickingLocked(false)
	}
}

func (p *Progress) isTogether() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.together
}

// who is how a task's line starts: its id while tasks run together.
func (p *Progress) who(id planparse.TaskID) string {
	if p.isTogether() {
		return textsafe.Line(string(id)) + " "
	}
	return ""
}

// Phase names what task id runs now ("gate test", "step 2/3: make") in
// place of what ran before, and restarts its clock: on its line of the
// board while tasks run together, else on the status line.
func (p *Progress) Phase(id planparse.TaskID, what string) {
	if !p.tty {
		return
	}
	p.mu.Lock()
	if p.together {
		defer p.mu.Unlock()
		p.board.set(id, what, p.now())
		p.tickingLocked(true)
		p.drawBoardLocked("")
		return
	}
	base := p.status
	p.mu.Unlock()
	p.setStatus(phaseStatus(base, what))
}

// PhaseEnd says that id runs nothing more for now (a wave's
// integration gate has run): its line leaves the board. The serial
// path's status line stays until its task ends.
func (p *Progress) PhaseEnd(id planparse.TaskID) {
	if !p.tty {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.together && p.board.find(id) >= 0 {
		p.board.drop(id)
		p.drawBoardLocked("")
	}
}

// phaseStatus is the status line base ("[1/3] T001", or with a phase
// already) with its phase replaced by what.
func phaseStatus(base, what string) string {
	if i := strings.Index(base, " · "); i >= 0 {
		base = base[:i]
	}
	return base + " · " + what
}

// GateStart is the phase of task id's gates: gates.RunOptions.Begin.
func (p *Progress) GateStart(id planparse.TaskID) func(gates.Gate) {
	return func(g gates.Gate) { p.Phase(id, "gate "+textsafe.Line(g.Name)) }
}

// Step says that task id's step (or agent) name starts, running code.
func (p *Progress) Step(id planparse.TaskID, name, code string) {
	first := strings.TrimSpace(strings.SplitN(strings.TrimSpace(code), "\n", 2)[0])
	if p.tty {
		p.Phase(id, name+": "+textsafe.Line(textsafe.Shorten(first, 40)))
		return
	}
	if p.isTogether() {
		p.Println("      %s %s: %s", textsafe.Line(string(id)), name, textsafe.Line(textsafe.Shorten(first, 60)))
		return
	}
	p.Println("      %s: %s", name, textsafe.Line(textsafe.Shorten(first, 60)))
}
