// Package gopt is one of the test binaries of planx's adversarial suite
// (internal/advsuite, its groups): the Go cases (go_) and the pytest
// cases (pt_) of internal/advsuite/testdata/agents, each run through
// planx alone (TestAdversarial/case/<case>) and, those of the wave mode,
// as the last task of a parallel wave (TestAdversarial/wave/<case>), in
// one process. internal/advsuite/jspymk runs the other languages; the
// suite is split so that no binary runs past the four minutes or so one
// may take in CI's full pass.
package gopt

import (
	"path/filepath"
	"testing"

	"github.com/planx-dev/planx/internal/advsuite"
)

// TestAdversarial runs the Go and pytest cases (advsuite.Adversarial).
func TestAdversarial(t *testing.T) {
	advsuite.Adversarial(t, "gopt", filepath.Join("..", "testdata"))
}
