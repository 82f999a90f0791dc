package executor

import "github.com/planx-dev/planx/gitops"

// dirtyPaths lists the paths git reports changed, less planx's own log.
func (r *runner) dirtyPaths(changes []gitops.Change) []string {
	var out []string
	for _, c := range changes {
		if r.log == nil || c.Path != r.log.Path {
			out = append(out, c.Path)
		}
	}
	return out
}
