package command

import (
	"context"
	"os"
	"testing"

	"github.com/planx-dev/planx/internal/command/scenarios"
)

// TestMain lets the test binary run as planx: the crash, soak and signal
// tests start it through a symlink named planx (planxBinary). The
// scenarios of testdata/script run in the group packages under scripts/.
func TestMain(m *testing.M) {
	scenarios.Main(m, func() int { return Main(context.Background(), os.Args, StdIO()) })
}
