package drive

import (
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/internal/run/admit"
	"github.com/planx-dev/planx/internal/run/taskgate"
	"github.com/planx-dev/planx/planparse"
)

// Options configure a run. They are package admit's, which prepares a
// run from them (admit.Prepare) before the runner takes it.
type Options = admit.Options

// Where gates run (Options.GatesIn).
const (
	GatesClean = taskgate.GatesClean
	GatesTree  = taskgate.GatesTree
)

// Result summarises a run (or a resume) for the caller.
type Result struct {
	RunID   string
	LogPath string // repo-relative
	Base    string // rollback commit
	Done    []planparse.TaskID
	Status  record.RunStatus
	Next    string // what to do next, when the run stopped
}
