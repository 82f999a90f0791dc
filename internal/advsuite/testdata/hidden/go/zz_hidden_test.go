package calc_test

import (
	"testing"

	"example.com/calc"
)

func TestHiddenSub(t *testing.T) {
	cases := [][3]int{{10, 4, 6}, {0, 7, -7}, {-2, -5, 3}, {100, 1, 99}}
	for _, c := range cases {
		if got := calc.Sub(c[0], c[1]); got != c[2] {
			t.Errorf("Sub(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
}
