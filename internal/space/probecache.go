package space

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// A probe that passed is remembered in the directory the spaces' layers
// go in, under a name that holds what its answer depends on: this boot
// of the kernel (a new kernel, a sysctl set at boot), the user, planx's
// own executable (the helper that builds spaces) and that directory. Each
// planx command would otherwise make a whole machine's space and end it
// to learn what the last one learned: on a file system slow to create
// files, most of a short run's system time. A refusal is never
// remembered, and a space whose helper fails to set up forgets every
// remembered answer (forgetProbes): a changed policy (user namespaces
// turned off meanwhile) costs one failed task, then the probe runs again.

// probeMark is the file that says a probe passed in parent, "" when its
// name cannot be known here.
func probeMark(parent string) string {
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%s\x00%d\x00%d\x00%s", boot, os.Geteuid(), exe, fi.Size(), fi.ModTime().UnixNano(), parent)
	return filepath.Join(parent, "probe-"+hex.EncodeToString(h.Sum(nil))[:20]+".ok")
}

// probeRemembered reports whether a probe passed before in parent.
func probeRemembered(parent string) bool {
	mark := probeMark(parent)
	if mark == "" {
		return false
	}
	_, err := os.Stat(mark)
	return err == nil
}

// markAge is how long a remembered probe stays beside the layers: each
// build of planx (each test binary too) writes its own mark, and one a
// day old is most likely an old build's.
const markAge = 24 * time.Hour

// rememberProbe notes that a probe passed in parent, and removes the marks
// older than markAge (at worst, a probe runs again).
func rememberProbe(parent string) {
	mark := probeMark(parent)
	if mark == "" {
		return
	}
	_ = os.WriteFile(mark, nil, 0o600)
	old, _ := filepath.Glob(filepath.Join(parent, "probe-*.ok"))
	for _, m := range old {
		if fi, err := os.Stat(m); err == nil && time.Since(fi.ModTime()) > markAge {
			_ = os.Remove(m)
		}
	}
}

// forgetProbes removes every remembered probe.
func forgetProbes() {
	for _, c := range StateCandidates() {
		marks, _ := filepath.Glob(filepath.Join(c, "probe-*.ok"))
		for _, m := range marks {
			_ = os.Remove(m)
		}
	}
}
