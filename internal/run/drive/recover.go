package drive

import (
	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
)

// dirtyPaths lists the paths git reports changed, less planx's own log
// (nil before the run has one).
func dirtyPaths(log *execlog.Log, changes []gitops.Change) []string {
	var out []string
	for _, c := range changes {
		if log == nil || c.Path != log.Path {
			out = append(out, c.Path)
		}
	}
	return out
}
