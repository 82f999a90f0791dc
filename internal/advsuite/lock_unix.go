//go:build unix

package advsuite

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an OS lock (flock) on the file at p, made if need be,
// waiting for it, and returns its release. The kernel releases it if the
// test binary dies holding it.
func lockFile(p string) (func(), error) {
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return func() { _ = f.Close() }, nil
}
