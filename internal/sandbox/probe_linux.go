package sandbox

import (
	"os"
	"os/exec"
	"syscall"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// probe finds the strongest level this machine allows: Landlock is asked
// for its ABI version; a mount namespace is tried by starting the helper in
// one (a root process may always; others need unprivileged user namespaces,
// which some distributions refuse).
func probe(exe string) Level {
	if v, err := llsys.LandlockGetABIVersion(); err != nil || v < 1 {
		return None
	}
	cmd := exec.Command(exe, HelperArg, "probe")
	cmd.Args[0] = "planx"
	if err := wrapAttr(cmd, Full); err != nil {
		return LandlockOnly
	}
	if err := cmd.Run(); err != nil {
		return LandlockOnly
	}
	return Full
}

// probeMain runs in the namespace probe started: it may make its mounts
// private and bind a directory read-only.
func probeMain() int {
	if err := unix.Mount("none", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return 1
	}
	dir, err := os.MkdirTemp("", "planx-probe-")
	if err != nil {
		return 1
	}
	// A mount point cannot be removed: the bind goes first, or the
	// directory stays behind in the user's temporary directory.
	defer func() {
		_ = unix.Unmount(dir, unix.MNT_DETACH)
		_ = os.Remove(dir)
	}()
	if bind(dir, true) != nil {
		return 1
	}
	if f, err := os.Create(dir + "/x"); err == nil {
		f.Close()
		return 1 // the read-only bind did not hold
	}
	return 0
}

// wrapAttr starts the helper in a mount namespace of its own for Full: as
// root directly, otherwise inside a user namespace that maps the user to
// itself and keeps CAP_SYS_ADMIN across the exec of the helper, which drops
// it before it execs the program.
func wrapAttr(cmd *exec.Cmd, l Level) error {
	if l != Full {
		return nil
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	a := cmd.SysProcAttr
	a.Cloneflags |= unix.CLONE_NEWNS
	if uid := os.Geteuid(); uid != 0 {
		gid := os.Getegid()
		a.Cloneflags |= unix.CLONE_NEWUSER
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
		a.GidMappingsEnableSetgroups = false
		a.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN}
	}
	return nil
}
