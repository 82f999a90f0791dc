package proc

import "bytes"

// tailKeep bounds the bytes kept for Result.Tail; the whole output is in the
// output file, so memory use must not grow with it.
const tailKeep = 64 << 10

// tailBuffer keeps at least the last tailKeep bytes written to it. It grows
// to twice that before dropping old bytes, so that many small writes cost
// amortised constant time instead of a 64 KiB move each.
type tailBuffer struct {
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) >= tailKeep {
		t.buf = append(t.buf[:0], p[len(p)-tailKeep:]...)
		return n, nil
	}
	if len(t.buf)+len(p) > 2*tailKeep {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailKeep:]...)
	}
	t.buf = append(t.buf, p...)
	return n, nil
}

// lines returns the last n lines without the final newline.
func (t *tailBuffer) lines(n int) string {
	b := bytes.TrimRight(t.buf, "\n")
	if n <= 0 || len(b) == 0 {
		return ""
	}
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '\n' {
			n--
			if n == 0 {
				return string(b[i+1:])
			}
		}
	}
	return string(b)
}
