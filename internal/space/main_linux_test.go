package space

import (
	"os"
	"testing"
)

// The test binary is its own helper, as planx is.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == HelperArg {
		os.Exit(Main(os.Args[2:], os.Stderr))
	}
	os.Exit(m.Run())
}
