package drive

import (
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

// TestMain gives the tests one hermetic git environment (gittest.Main), so
// that they need no Setenv of their own and run in parallel.
func TestMain(m *testing.M) { gittest.Main(m) }
