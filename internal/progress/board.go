package progress

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// board is the live view of a wave on a terminal: below the permanent
// lines, a block of one line per task running, in plan order, each with
// its phase and how long that phase has run. It is Progress's state,
// read and written under its mutex.
//
// The block ends with a newline: the cursor rests at the start of the
// line below it, so moving up as many lines as the block has (drawn)
// reaches its first line whatever the last line's length.
type board struct {
	order map[planparse.TaskID]int    // plan position, from TaskStart
	names map[planparse.TaskID]string // how TaskStart showed the task
	rows  []row                       // the tasks on the board, in plan order
	drawn int                         // lines of the block on the screen
}

// row is one task's line on the board.
type row struct {
	id    planparse.TaskID
	name  string
	phase string
	since time.Time // when the phase began
}

// know remembers task t, the run's i-th, for its line on the board.
func (b *board) know(t *planparse.Task, i int) {
	if b.order == nil {
		b.order, b.names = map[planparse.TaskID]int{}, map[planparse.TaskID]string{}
	}
	b.order[t.ID], b.names[t.ID] = i, textsafe.Line(t.DisplayID())
}

// set puts what as id's phase since now, adding its line in plan order
// (after the others for a task TaskStart did not announce).
func (b *board) set(id planparse.TaskID, what string, now time.Time) {
	if i := b.find(id); i >= 0 {
		b.rows[i].phase, b.rows[i].since = what, now
		return
	}
	name, ok := b.names[id]
	if !ok {
		name = textsafe.Line(string(id))
	}
	r := row{id: id, name: name, phase: what, since: now}
	at := len(b.rows)
	if pos, ok := b.order[id]; ok {
		at = slices.IndexFunc(b.rows, func(o row) bool { p, known := b.order[o.id]; return !known || p > pos })
		if at < 0 {
			at = len(b.rows)
		}
	}
	b.rows = slices.Insert(b.rows, at, r)
}

func (b *board) find(id planparse.TaskID) int {
	return slices.IndexFunc(b.rows, func(r row) bool { return r.id == id })
}

// drop takes id's line off the board.
func (b *board) drop(id planparse.TaskID) {
	if i := b.find(id); i >= 0 {
		b.rows = slices.Delete(b.rows, i, i+1)
	}
}

// lines are the board's lines at now on a terminal of cols columns and
// height lines: each cut to fit (one column spare, so that no terminal
// wraps a full line), its time dimmed by paint; as many as fit with the
// line the cursor rests on, the rest counted on the last (the cursor
// cannot move up past the top of the screen).
func (b *board) lines(now time.Time, cols, height int, paint func(code, s string) string) []string {
	shown, more := b.rows, 0
	if len(shown) > height-1 {
		shown = shown[:max(height-2, 0)]
		more = len(b.rows) - len(shown)
	}
	out := make([]string, 0, len(shown)+1)
	for _, r := range shown {
		out = append(out, fit(r.name+" · "+r.phase, " · "+elapsed(now.Sub(r.since)), cols, paint))
	}
	if more > 0 {
		out = append(out, textsafe.Shorten(fmt.Sprintf("… and %d more running", more), cols-1))
	}
	return out
}

// fit is head and tail on one line of at most cols-1 columns, head cut
// first, tail dimmed.
func fit(head, tail string, cols int, paint func(code, s string) string) string {
	room := cols - 1 - utf8.RuneCountInString(tail)
	if room < 10 {
		return textsafe.Shorten(head+tail, cols-1)
	}
	return textsafe.Shorten(head, room) + paint("2", tail)
}

// frame is what redraws the block on the screen as lines, with perm,
// permanent text ending in a newline (or ""), printed above it. The old
// block's lines are cleared first when perm or a shorter block could
// leave some of them on the screen (a permanent line may wrap).
func (b *board) frame(perm string, lines []string) string {
	var s strings.Builder
	if h := b.drawn; h > 0 {
		fmt.Fprintf(&s, "\r\x1b[%dA", h)
		if perm != "" || len(lines) < h {
			s.WriteString(strings.Repeat("\x1b[K\n", h))
			fmt.Fprintf(&s, "\x1b[%dA", h)
		}
	}
	s.WriteString(perm)
	for _, l := range lines {
		s.WriteString("\r\x1b[K" + l + "\n")
	}
	b.drawn = len(lines)
	return s.String()
}

// elapsed is how the live lines show a duration: 12.4s, 2m3.1s.
func elapsed(d time.Duration) string { return d.Round(100 * time.Millisecond).String() }

// terminalSize is the size of the terminal out (columns, lines), read
// at each frame (a window may be resized during a run), or 80×24 when it
// cannot be told.
func terminalSize(out any) func() (int, int) {
	f, ok := out.(*os.File)
	return func() (int, int) {
		if ok {
			if w, h, err := term.GetSize(int(f.Fd())); err == nil && w > 0 && h > 0 {
				return w, h
			}
		}
		return 80, 24
	}
}
