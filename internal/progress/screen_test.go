package progress

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// screen is what a terminal cols wide shows of the bytes written to it,
// for the escape codes planx uses: \r, \n (the terminal's output turns
// it into \r\n), ESC[K (clear to the end of the line), ESC[nA (n lines
// up) and ESC[…m (colours, which show nothing). A line longer than the
// screen wraps, as a terminal's does. ups records each move up.
type screen struct {
	cols     int
	rows     [][]rune
	row, col int
	ups      []int
}

func (s *screen) write(t *testing.T, b string) {
	t.Helper()
	for len(b) > 0 {
		if strings.HasPrefix(b, "\x1b[") {
			end := strings.IndexAny(b, "ABCDHJKm")
			if end < 0 {
				t.Fatalf("unterminated escape %q", b)
			}
			s.escape(t, b[2:end], b[end])
			b = b[end+1:]
			continue
		}
		r, n := utf8.DecodeRuneInString(b)
		b = b[n:]
		switch r {
		case '\r':
			s.col = 0
		case '\n':
			s.row, s.col = s.row+1, 0
		case '\x1b':
			t.Fatalf("escape the screen does not know: %q", b)
		default:
			if s.col == s.cols {
				s.row, s.col = s.row+1, 0
			}
			s.line()[s.col] = r
			s.col++
		}
	}
}

func (s *screen) escape(t *testing.T, arg string, code byte) {
	t.Helper()
	switch code {
	case 'K':
		l := s.line()
		for i := s.col; i < len(l); i++ {
			l[i] = ' '
		}
	case 'A':
		n := 1
		if arg != "" {
			var err error
			if n, err = strconv.Atoi(arg); err != nil || n < 1 {
				t.Fatalf("cursor up %q", arg)
			}
		}
		s.ups = append(s.ups, n)
		s.row = max(s.row-n, 0)
	case 'm':
	default:
		t.Fatalf("escape the screen does not know: ESC[%s%c", arg, code)
	}
}

// line is the cursor's line, made as the cursor reaches it.
func (s *screen) line() []rune {
	for len(s.rows) <= s.row {
		s.rows = append(s.rows, []rune(strings.Repeat(" ", s.cols)))
	}
	return s.rows[s.row]
}

// lines are the screen's lines without their trailing blanks, up to
// the last that shows something.
func (s *screen) lines() []string {
	var out []string
	for _, r := range s.rows {
		out = append(out, strings.TrimRight(string(r), " "))
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}
