// Package inwave is one of the two passes of planx's adversarial suite
// (internal/advsuite): the cases of its wave mode (all of them with
// PLANX_ADV_WAVE=all) run through planx as the last task of a parallel
// wave, TestInWave/<case>, and must come to the outcome
// testdata/expect.txt records for them alone. The other pass,
// internal/advsuite/alone, runs every case alone; each pass is a test
// binary of its own, so that neither runs past the four minutes or so a
// binary may take in CI's full pass.
package inwave

import (
	"path/filepath"
	"testing"

	"github.com/planx-dev/planx/internal/advsuite"
)

// TestInWave runs the wave mode's cases of
// internal/advsuite/testdata/agents in a wave (advsuite.InWave).
func TestInWave(t *testing.T) { advsuite.InWave(t, filepath.Join("..", "testdata")) }
