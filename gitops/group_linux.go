package gitops

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// stopHooks asks every process of git's process group but git itself (the
// hooks it runs and what they started) to terminate. git is never
// signalled: a hook that dies makes git fail the commit the ordinary way,
// removing its own index.lock and ref locks, which git does not reliably do
// when it is itself killed by a signal.
func stopHooks(pgid int) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == pgid {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(b[i+1:])
		if len(f) > 2 && string(f[2]) == strconv.Itoa(pgid) {
			_ = syscall.Kill(pid, syscall.SIGTERM)
		}
	}
}
