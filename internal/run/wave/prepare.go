package wave

import (
	"context"
	"sync"

	"github.com/planx-dev/planx/gitops"
)

// A wave's next wave starts from the commit its integration gate runs on
// (sealed again with the gate's trailers: the same tree), and its tasks
// would each check a slot out there once the landing is done. Prepare does
// those checkouts while the gate runs, in the slots the wave's tasks gave
// back: where the gates wait on anything but the CPU (a test server, the
// network, a sleep), the next wave's slots cost nothing; a wave whose gate
// fails has them checked out again, from a tree close to theirs.

// Prepare checks out clean at rev, in the background, up to n of the free
// slots, for the Takes of rev that follow. A prepared slot stays free: a
// Take of another commit checks it out as any other, and any Take, Put or
// Keep of it forgets that it is ready. The wait returned waits for the
// checkouts (a cancelled ctx stops them; the slots they leave are checked
// out again when taken): the caller waits before anything else may use the
// slots' directories (the run's end cleans them).
func (s *Pool) Prepare(ctx context.Context, rev gitops.SHA, n int) (wait func()) {
	s.mu.Lock()
	var dirs []string
	for len(dirs) < n && len(s.free) > 0 {
		k := len(s.free) - 1
		dirs = append(dirs, s.free[k])
		delete(s.ready, s.free[k])
		s.free = s.free[:k]
	}
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, dir := range dirs {
		wg.Go(func() {
			err := s.Checkout(ctx, dir, rev)
			s.mu.Lock()
			defer s.mu.Unlock()
			if err == nil {
				if s.ready == nil {
					s.ready = map[string]gitops.SHA{}
				}
				s.ready[dir] = rev
			}
			s.free = append(s.free, dir)
		})
	}
	return wg.Wait
}

// Moved says that commit from, which slots may be prepared at, was made
// again as to with the same tree (a wave's last commit sealed with its
// integration gate's trailers): those slots are ready for to.
func (s *Pool) Moved(from, to gitops.SHA) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for dir, rev := range s.ready {
		if rev == from {
			s.ready[dir] = to
		}
	}
}
