package proc

import (
	"strings"
	"testing"
)

func TestTailBuffer(t *testing.T) {
	var tb tailBuffer
	for i := 0; i < 3*tailKeep/10; i++ {
		_, _ = tb.Write([]byte("line nine\n"))
	}
	if len(tb.buf) > 2*tailKeep || len(tb.buf) < tailKeep {
		t.Fatalf("buffer holds %d bytes, want between %d and %d", len(tb.buf), tailKeep, 2*tailKeep)
	}
	if got := tb.lines(2); got != "line nine\nline nine" {
		t.Errorf("lines(2) = %q", got)
	}
	_, _ = tb.Write([]byte("a\nb\nc"))
	if got := tb.lines(2); got != "b\nc" {
		t.Errorf("lines(2) without final newline = %q", got)
	}
	big := strings.Repeat("x", tailKeep+5) + "\nend\n"
	_, _ = tb.Write([]byte(big))
	if len(tb.buf) != tailKeep || tb.lines(1) != "end" {
		t.Errorf("after a write larger than the limit: %d bytes, last line %q", len(tb.buf), tb.lines(1))
	}
	var empty tailBuffer
	if got := empty.lines(5); got != "" {
		t.Errorf("empty lines = %q", got)
	}
}
