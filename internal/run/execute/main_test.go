package execute

import (
	"os"
	"testing"

	"github.com/planx-dev/planx/internal/space"
)

// The test binary is its own space helper, as planx is.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == space.HelperArg {
		os.Exit(space.Main(os.Args[2:], os.Stderr))
	}
	os.Exit(m.Run())
}
