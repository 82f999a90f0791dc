//go:build !linux

package proc

// StartTime is unknown (0) where there is no /proc: callers then fall back
// to the pid alone.
func StartTime(int) uint64 { return 0 }
