//go:build darwin || freebsd || netbsd || openbsd

package gitops

import "syscall"

// changeTime is the inode change time in nanoseconds: no one can set it
// back, as touch sets a modification time.
func changeTime(st *syscall.Stat_t) int64 { return st.Ctimespec.Nano() }
