package executor

import (
	"sync"

	"github.com/planx-dev/planx/gitops"
)

// wave is one parallel wave in flight: its tasks, each run in its own
// linked work tree from the branch's tip (execute, verify and gate: exec),
// then integrated onto the branch in plan order (integrate).
type wave struct {
	r      *runner
	its    []*isolated
	base   gitops.SHA // the branch's tip the wave's work trees start from
	number int        // the wave's number in the run, for its trailers and messages
	last   bool       // the run's last wave: its integration gate runs the final gates too
	res    *Result    // the run's result, which the wave's landing and stop fill in
	// mu serialises the workers' writes to the run's log, state and output.
	mu sync.Mutex
}
