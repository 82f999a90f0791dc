package handoff

import (
	"testing"

	"github.com/planx-dev/planx/internal/gittest"
)

func TestMain(m *testing.M) { gittest.Main(m) }
