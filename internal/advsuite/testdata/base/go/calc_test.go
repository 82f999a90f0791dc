package calc

import (
	"testing"

	"example.com/calc/internal/testutil"
)

func TestSub(t *testing.T) {
	testutil.Equal(t, Sub(5, 3), 2)
}
