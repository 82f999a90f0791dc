// Package alone is one of the two passes of planx's adversarial suite
// (internal/advsuite): every case runs through planx alone,
// TestAlone/<case>. The other pass, internal/advsuite/inwave, runs cases
// as the last task of a parallel wave; each pass is a test binary of its
// own, so that neither runs past the four minutes or so a binary may take
// in CI's full pass. PLANX_ADV_UPDATE=1 (rewrite testdata/expect.txt) is
// this pass's.
package alone

import (
	"path/filepath"
	"testing"

	"github.com/planx-dev/planx/internal/advsuite"
)

// TestAlone runs every case of internal/advsuite/testdata/agents alone
// (advsuite.Alone).
func TestAlone(t *testing.T) { advsuite.Alone(t, filepath.Join("..", "testdata")) }
