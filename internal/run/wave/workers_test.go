package wave

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestWorkersAtMostJobsAtOnce(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var now, most atomic.Int32
	var ran, finished []int
	var inFinished atomic.Bool
	Workers(context.Background(), 2, []int{0, 2, 3, 5, 7}, &mu,
		func(ctx context.Context, i int) {
			n := now.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			time.Sleep(20 * time.Millisecond)
			now.Add(-1)
			mu.Lock()
			ran = append(ran, i)
			mu.Unlock()
		},
		func(ctx context.Context, i int) {
			if !inFinished.CompareAndSwap(false, true) {
				t.Error("two tasks finished at once")
			}
			if mu.TryLock() {
				t.Error("finished called without the lock")
				mu.Unlock()
			}
			finished = append(finished, i)
			inFinished.Store(false)
		})
	if most.Load() > 2 || most.Load() < 1 {
		t.Errorf("%d tasks ran at once, want at most 2", most.Load())
	}
	slices.Sort(ran)
	slices.Sort(finished)
	if want := []int{0, 2, 3, 5, 7}; !slices.Equal(ran, want) || !slices.Equal(finished, want) {
		t.Errorf("ran %v, finished %v, want %v each once", ran, finished, want)
	}
}

// A worker waiting for its turn when the run is interrupted does not wait
// for a busy worker: it runs at once, to record that it ran nothing.
func TestWorkersCancelledDoNotWaitForATurn(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	var cancelled atomic.Int32
	done := make(chan struct{})
	go func() {
		defer close(done)
		Workers(ctx, 1, []int{0, 1, 2}, &mu, func(ctx context.Context, i int) {
			if ctx.Err() == nil {
				cancel()
				<-release // holds the only turn
				return
			}
			if cancelled.Add(1) == 2 {
				close(release)
			}
		}, func(ctx context.Context, i int) {})
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("workers waited for a turn after the context was done")
	}
	if cancelled.Load() != 2 {
		t.Errorf("%d workers ran cancelled, want 2", cancelled.Load())
	}
}
