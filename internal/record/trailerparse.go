package record

import "strings"

// Trailer is one "Key: value" line of a message's trailer block.
type Trailer struct{ Key, Value string }

// ParseTrailers returns the trailers of a commit message as
// `git interpret-trailers --parse --no-divider` and `git log
// --format=%(trailers:only,unfold)` do (a port of git 2.39's trailer.c with
// no trailer.* config): the block is the last paragraph, after the subject
// paragraph, once trailing '#' comments and blank lines are set aside; it
// counts when all its lines are trailers or continuation lines, or when it
// holds a git-generated trailer (Signed-off-by, "(cherry picked from") and at
// least a quarter of its lines are trailers. Keys are ASCII letters, digits
// and '-'; continuation lines are unfolded into one space.
//
// A line starting with "---" is not a divider here (it would be for plain
// `git interpret-trailers --parse`, made for patches): commit messages have no
// patch part, and git log does not treat it as one either.
func ParseTrailers(message string) []Trailer {
	buf := message
	if buf != "" && !strings.HasSuffix(buf, "\n") {
		buf += "\n"
	}
	end := len(buf) - ignoredTail(buf)
	start := trailerStart(buf, end)
	if start >= end {
		return nil
	}
	// Join continuation lines onto the trailer above them.
	var items []string
	lastIsTrailer := false
	for _, line := range strings.SplitAfter(buf[start:end], "\n") {
		if line == "" {
			continue
		}
		if lastIsTrailer && isSpace(line[0]) {
			items[len(items)-1] += line
			continue
		}
		items = append(items, line)
		lastIsTrailer = separatorPos(line) >= 1
	}
	var out []Trailer
	for _, it := range items {
		pos := separatorPos(it)
		if it[0] == '#' || pos < 1 {
			continue
		}
		out = append(out, Trailer{Key: trim(it[:pos]), Value: unfold(trim(it[pos+1:]))})
	}
	return out
}

// TrailerOf is the value of message's first trailer named key (see
// ParseTrailers), "" when it has none. A caller that reads several keys
// of one message parses it once and asks ValueOf.
func TrailerOf(message, key string) string { return ValueOf(ParseTrailers(message), key) }

// ValueOf is the value of the first of ts named key, "" when none is.
func ValueOf(ts []Trailer, key string) string {
	for _, t := range ts {
		if t.Key == key {
			return t.Value
		}
	}
	return ""
}

// isSpace is C's isspace in the C locale.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func trim(s string) string {
	for s != "" && isSpace(s[0]) {
		s = s[1:]
	}
	for s != "" && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// separatorPos is trailer.c's find_separator with ":" as the only separator:
// the index of ':' after a key of [A-Za-z0-9-] and optional blanks, else -1.
func separatorPos(line string) int {
	blank := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ':':
			return i
		case !blank && (isAlnum(c) || c == '-'):
		case i > 0 && (c == ' ' || c == '\t'):
			blank = true
		default:
			return -1
		}
	}
	return -1
}

// unfold collapses each newline and the whitespace after it into one space.
func unfold(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); {
		c := v[i]
		i++
		if c != '\n' {
			b.WriteByte(c)
			continue
		}
		for i < len(v) && isSpace(v[i]) {
			i++
		}
		b.WriteByte(' ')
	}
	return trim(b.String())
}

func nextLine(buf string, i int) int {
	if j := strings.IndexByte(buf[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(buf)
}

// lastLine is the start of the line before offset end, or -1.
func lastLine(buf string, end int) int {
	if end <= 0 {
		return -1
	}
	if end == 1 {
		return 0
	}
	// The byte at end-1 is the previous line's own newline.
	if j := strings.LastIndexByte(buf[:end-1], '\n'); j >= 0 {
		return j + 1
	}
	return 0
}

func isBlankLine(buf string, i int) bool {
	for ; i < len(buf) && buf[i] != '\n'; i++ {
		if !isSpace(buf[i]) {
			return false
		}
	}
	return true
}

// ignoredTail is the length of the message's end that cannot hold trailers:
// everything from a scissors line on, then a run of trailing comment and
// blank lines and old-style "Conflicts:" blocks (trailer.c's
// ignore_non_trailer). As in git, a run starting at offset 0 is not counted.
func ignoredTail(buf string) int {
	cutoff := len(buf)
	const scissors = "# ------------------------ >8 ------------------------\n"
	if strings.HasPrefix(buf, scissors) {
		cutoff = 0
	} else if i := strings.Index(buf, "\n"+scissors); i >= 0 {
		cutoff = i + 1
	}
	boc, inConflicts := 0, false
	for bol := 0; bol < cutoff; bol = nextLine(buf, bol) {
		switch {
		case buf[bol] == '#' || buf[bol] == '\n':
			if boc == 0 {
				boc = bol
			}
		case strings.HasPrefix(buf[bol:], "Conflicts:\n"):
			inConflicts = true
			if boc == 0 {
				boc = bol
			}
		case inConflicts && buf[bol] == '\t':
		case boc != 0:
			boc, inConflicts = 0, false
		}
	}
	if boc != 0 {
		return len(buf) - boc
	}
	return len(buf) - cutoff
}

// trailerStart is trailer.c's find_trailer_start on buf[:end]; end when the
// message has no trailer block.
func trailerStart(buf string, end int) int {
	// The first paragraph is the subject and cannot hold trailers.
	title := 0
	for title < end {
		if buf[title] != '#' && isBlankLine(buf, title) {
			break
		}
		title = nextLine(buf, title)
	}
	onlySpaces, recognized := true, false
	trailers, nonTrailers, continuations := 0, 0, 0
	for l := lastLine(buf, end); l >= title && l >= 0; l = lastLine(buf, l) {
		line := buf[l:]
		if line[0] == '#' {
			nonTrailers += continuations
			continuations = 0
			continue
		}
		if isBlankLine(buf, l) {
			if onlySpaces {
				continue
			}
			nonTrailers += continuations
			if recognized && trailers*3 >= nonTrailers || trailers > 0 && nonTrailers == 0 {
				return nextLine(buf, l)
			}
			return end
		}
		onlySpaces = false
		if strings.HasPrefix(line, "Signed-off-by: ") || strings.HasPrefix(line, "(cherry picked from commit ") {
			trailers++
			continuations = 0
			recognized = true
			continue
		}
		switch {
		case separatorPos(line) >= 1 && !isSpace(line[0]):
			trailers++
			continuations = 0
		case isSpace(line[0]):
			continuations++
		default:
			nonTrailers += 1 + continuations
			continuations = 0
		}
	}
	return end
}
