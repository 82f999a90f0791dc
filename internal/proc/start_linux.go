package proc

import (
	"bytes"
	"os"
	"strconv"
)

// StartTime returns when process pid started, in clock ticks since boot
// (field 22 of /proc/<pid>/stat), or 0 when it does not exist. Together with
// the pid it names one process for the life of the boot: a pid the kernel
// reuses gets another start time.
func StartTime(pid int) uint64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	// After "pid (comm)" come fields 3 (state) onwards; starttime is 22.
	f := bytes.Fields(b[i+1:])
	if len(f) < 20 {
		return 0
	}
	n, err := strconv.ParseUint(string(f[19]), 10, 64)
	if err != nil {
		return 0
	}
	return n
}
