package wave

import (
	"context"
	"sync"
)

// Workers runs run(ctx, i) for each i of todo at once, at most jobs at a
// time, and then finished(ctx, i) holding mu, so that what a task leaves is
// recorded (the run's log and state, which the workers' output shares mu
// with) one task at a time, before the next one ends. A worker still
// waiting for its turn when ctx is done runs at once: run is then to
// record that it ran nothing (a slot is not taken on a cancelled context).
func Workers(ctx context.Context, jobs int, todo []int, mu *sync.Mutex, run, finished func(ctx context.Context, i int)) {
	var wg sync.WaitGroup
	turns := make(chan struct{}, max(jobs, 1))
	for _, i := range todo {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case turns <- struct{}{}:
				defer func() { <-turns }()
			case <-ctx.Done():
			}
			run(ctx, i)
			mu.Lock()
			defer mu.Unlock()
			finished(ctx, i)
		}()
	}
	wg.Wait()
}
