//go:build darwin || freebsd || netbsd || openbsd

package records

import "syscall"

// changeTime is the inode change time in nanoseconds.
func changeTime(st *syscall.Stat_t) int64 { return st.Ctimespec.Nano() }
