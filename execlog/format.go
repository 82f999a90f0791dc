package execlog

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// formatDuration rounds to what a reader cares about: milliseconds below a
// second, tenths below a minute, seconds above.
func formatDuration(d time.Duration) string {
	switch {
	case d < 0:
		return "0ms"
	case d < time.Second:
		return strconv.FormatInt(d.Round(time.Millisecond).Milliseconds(), 10) + "ms"
	case d < time.Minute:
		s := d.Round(100 * time.Millisecond).String()
		if s == "1m0s" {
			return "1m"
		}
		return s
	}
	s := d.Round(time.Second).String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
		if strings.HasSuffix(s, "h0m") {
			s = strings.TrimSuffix(s, "0m")
		}
	}
	return s
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format(time.RFC3339)
}

// longestRun returns the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	longest, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			longest = max(longest, n)
		} else {
			n = 0
		}
	}
	return longest
}

// fence returns a backtick fence longer than any backtick run in body, so
// that output containing ``` cannot close the block early.
func fence(body string) string {
	return strings.Repeat("`", max(3, longestRun(body, '`')+1))
}

// fenced renders body as a fenced code block.
func fenced(b *strings.Builder, lang, body string) {
	body = cleanOutput(body)
	f := fence(body)
	fmt.Fprintf(b, "%s%s\n%s\n%s\n", f, lang, strings.TrimRight(body, "\n"), f)
}

// cleanOutput drops terminal escape sequences (colour, cursor movement),
// which are noise in a markdown file, and turns carriage returns into
// newlines so progress bars do not hide lines.
func cleanOutput(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			// CSI: parameter and intermediate bytes, then one final byte.
			j := i + 2
			for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
				j++
			}
			if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
				i = j
				continue
			}
		}
		if c == '\r' {
			if i+1 < len(s) && s[i+1] == '\n' {
				continue
			}
			c = '\n'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// code renders s as an inline code span on one line. Spans cannot hold
// newlines, so only the first line is kept, marked with "…"; the full text
// is in the plan or the output file.
func code(s string) string {
	s = strings.TrimSpace(s)
	if first, _, multi := strings.Cut(s, "\n"); multi {
		s = strings.TrimSpace(first) + " …"
	}
	if s == "" {
		return ""
	}
	ticks := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return ticks + " " + s + " " + ticks
	}
	return ticks + s + ticks
}

// cell makes text safe inside a table cell: one line, pipes escaped (GFM
// requires \| even inside code spans in tables).
func cell(s string) string {
	s = strings.TrimSpace(strings.ReplaceAll(s, "\n", " "))
	return strings.ReplaceAll(s, "|", `\|`)
}

// text puts free text on one line for a list item.
func text(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func shortSHA(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
