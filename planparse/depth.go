package planparse

import "fmt"

// maxContainerColumn bounds how deep lists and block quotes may nest: a
// list marker or ">" whose content would start past this column is read as
// text. goldmark checks every open container on every line, so a plan of
// thousands of nested levels costs lines × depth; real plans stay under ten
// levels (about 40 columns).
const maxContainerColumn = 48

// flattenDeep returns src with the container markers (list bullets,
// ordered-list numbers, ">") that sit past maxContainerColumn replaced by
// spaces, byte for byte, so that every offset still indexes src; the first
// line where it did so (0 when src is unchanged); and how many container
// markers are left, to size the block list.
func flattenDeep(src []byte) (flat []byte, first, markers int) {
	out := src
	line := 1
	for i := 0; i < len(src); {
		end := i
		for end < len(src) && src[end] != '\n' {
			end++
		}
		k, n := deepMarkers(src[i:end])
		markers += n
		w := deepIndent(src[i:end])
		if k >= 0 || w >= 0 {
			if first == 0 {
				first = line
				out = append([]byte(nil), src...)
			}
			if k >= 0 {
				blankMarkers(out[i+k : end])
			}
			// goldmark measures a line's indentation once per open
			// container: text indented past the cap gets a visible
			// character there, so the measure stops at the cap.
			if w = deepIndent(out[i:end]); w >= 0 {
				out[i+w] = '.'
			}
		}
		i = end + 1
		line++
	}
	return out, first, markers
}

// deepIndent returns the offset in ln of the first whitespace byte past
// maxContainerColumn when text follows it, or -1.
func deepIndent(ln []byte) int {
	col := 0
	for j, c := range ln {
		switch c {
		case ' ':
			col++
		case '\t':
			col += 4 - col%4
		default:
			return -1
		}
		if col > maxContainerColumn {
			for _, rest := range ln[j:] {
				if rest != ' ' && rest != '\t' && rest != '\r' {
					return j
				}
			}
			return -1
		}
	}
	return -1
}

// deepMarkers returns the offset in ln of the first container marker that
// starts past maxContainerColumn, or -1, and how many markers come before.
func deepMarkers(ln []byte) (int, int) {
	count := 0
	col := 0
	for j := 0; j < len(ln); {
		c := ln[j]
		n := markerLen(ln[j:])
		switch {
		case c == ' ':
			col++
			j++
			continue
		case c == '\t':
			col += 4 - col%4
			j++
			continue
		case n == 0:
			return -1, count
		}
		if col+n > maxContainerColumn {
			return j, count
		}
		count++
		col += n
		j += n
	}
	return -1, count
}

// markerLen is the length of the container marker at the start of b: ">",
// or a bullet or an ordered-list number followed by a space or the line's
// end; 0 when b does not start with one.
func markerLen(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	switch b[0] {
	case '>':
		return 1
	case '-', '*', '+':
		if len(b) == 1 || b[1] == ' ' || b[1] == '\t' || b[1] == '\r' {
			return 1
		}
		return 0
	}
	n := 0
	for n < len(b) && n < 9 && b[n] >= '0' && b[n] <= '9' {
		n++
	}
	if n == 0 || n >= len(b) || (b[n] != '.' && b[n] != ')') {
		return 0
	}
	if n+1 == len(b) || b[n+1] == ' ' || b[n+1] == '\t' || b[n+1] == '\r' {
		return n + 1
	}
	return 0
}

// blankMarkers replaces the container markers at the start of b with spaces.
func blankMarkers(b []byte) {
	for j := 0; j < len(b); {
		switch n := markerLen(b[j:]); {
		case b[j] == ' ' || b[j] == '\t':
			j++
		case n > 0:
			for k := j; k < j+n; k++ {
				b[k] = ' '
			}
			j += n
		default:
			return
		}
	}
}

// reportDeep warns where flattenDeep cut the nesting.
func (b *builder) reportDeep() {
	if b.d.deep > 0 {
		b.diag(SeverityWarning, b.d.deep, fmt.Sprintf("lists or quotes nest past column %d from here on: the deeper items are read as text", maxContainerColumn),
			"flatten the nesting; planx reads about 25 levels of lists at most")
	}
}
