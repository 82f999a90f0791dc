//go:build !linux

package execute

import "syscall"

// changeTime is a file's modification time in nanoseconds where task
// spaces, which alone read it, are not there (only Linux has them).
func changeTime(st *syscall.Stat_t) int64 { return st.Mtimespec.Nano() }
