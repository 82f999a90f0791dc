package progress

import (
	"bytes"
	"io"
	"sync"

	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// maxFollowLine is where a line that never ends (a progress bar redrawn
// with carriage returns, a minified blob) is cut and shown anyway.
const maxFollowLine = 4096

// follower streams one task's child output as permanent lines, each
// prefixed with the task, so output from several tasks of a wave stays
// readable and the status line is redrawn beneath it. The child's bytes
// are printed as text made safe for a terminal: a step cannot move the
// cursor or rewrite what planx printed.
type follower struct {
	p      *Progress
	prefix string

	mu  sync.Mutex
	buf []byte
}

// live returns where the output of id's steps, agent and gates is
// copied, and a flush for its last unterminated line; nil when output is
// not followed (it is always kept in files and shown as a tail on failure).
func (p *Progress) Live(id planparse.TaskID) (io.Writer, func()) {
	if !p.follow {
		return nil, func() {}
	}
	f := &follower{p: p, prefix: "  " + string(id) + " │ "}
	return f, f.flush
}

func (f *follower) Write(b []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.buf = append(f.buf, b...)
	for {
		i := bytes.IndexByte(f.buf, '\n')
		if i < 0 {
			if len(f.buf) < maxFollowLine {
				return len(b), nil
			}
			i = maxFollowLine
		}
		f.emit(f.buf[:i])
		if i < len(f.buf) && f.buf[i] == '\n' {
			i++
		}
		f.buf = f.buf[i:]
	}
}

func (f *follower) flush() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.buf) > 0 {
		f.emit(f.buf)
		f.buf = nil
	}
}

func (f *follower) emit(line []byte) {
	line = bytes.TrimRight(line, "\r")
	if i := bytes.LastIndexByte(line, '\r'); i >= 0 {
		line = line[i+1:] // what a terminal would have left on screen
	}
	f.p.Println("%s%s", f.prefix, textsafe.Line(expandTabs(string(line))))
}
