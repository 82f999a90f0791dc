package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Main is the helper: args are what follows HelperArg (the spec, the
// program's path, "--", its argv). It confines the calling thread and
// execs the program, so it returns only on failure, with the exit code a
// shell gives a command it cannot run (126). "probe" instead reports, by
// its exit code, whether a mount namespace works here.
func Main(args []string, stderr io.Writer) int {
	if len(args) == 1 && args[0] == "probe" {
		return probeMain()
	}
	if len(args) < 4 || args[2] != "--" {
		fmt.Fprintln(stderr, "planx sandbox: usage: planx "+HelperArg+" SPEC PROGRAM -- ARGV...")
		return 126
	}
	var spec helperSpec
	if err := json.Unmarshal([]byte(args[0]), &spec); err != nil {
		fmt.Fprintf(stderr, "planx sandbox: bad spec: %v\n", err)
		return 126
	}
	// Mounts, no_new_privs, capabilities and Landlock are all per thread;
	// the exec below must come from the thread they were set on, which is
	// never handed back to the Go scheduler.
	runtime.LockOSThread()
	if err := confine(spec); err != nil {
		fmt.Fprintf(stderr, "planx sandbox: %v\n", err)
		return 126
	}
	err := syscall.Exec(args[1], args[3:], os.Environ())
	fmt.Fprintf(stderr, "planx sandbox: exec %s: %v\n", args[1], err)
	return 126
}

func confine(spec helperSpec) error {
	if spec.Mount {
		if err := mountReadOnly(spec.Policy); err != nil {
			return err
		}
		// The working directory still names the file system as it was
		// before the mounts: from a work tree that is itself a mount point
		// (a wave's slot, made writable beneath the read-only git
		// directory), a relative path would reach its .git file under none
		// of them. Entered again by name, it is seen through them.
		if err := enterAgain(); err != nil {
			return err
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if err := dropAdmin(); err != nil {
		return err
	}
	return restrict(spec.Policy)
}

// mountReadOnly, in the helper's own mount namespace, makes each read-only
// path a read-only bind mount of itself, then writable roots beneath one of
// them writable binds again. Propagation is made private first so nothing
// reaches the user's mounts.
func mountReadOnly(p Policy) error {
	if err := unix.Mount("none", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	for _, ro := range p.ReadOnly {
		if err := bind(ro, true); err != nil {
			return err
		}
	}
	for _, w := range p.Writable {
		for _, ro := range p.ReadOnly {
			if within(w, ro) {
				if err := bind(w, false); err != nil {
					return err
				}
				break
			}
		}
	}
	return nil
}

// enterAgain changes to the working directory by its name, through the
// mounts made since it was entered.
func enterAgain() error {
	wd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("working directory: %w", err)
	}
	if err := os.Chdir(wd); err != nil {
		return fmt.Errorf("enter %s again: %w", wd, err)
	}
	return nil
}

// bind mounts dir onto itself, read-only or not, keeping the flags a
// remount in a user namespace may not drop (nosuid, nodev, noexec, atime).
func bind(dir string, readOnly bool) error {
	if _, err := os.Stat(dir); err != nil {
		return nil // nothing to protect or to open up
	}
	if err := unix.Mount(dir, dir, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("bind %s: %w", dir, err)
	}
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return fmt.Errorf("statfs %s: %w", dir, err)
	}
	flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT)
	for _, f := range [][2]int64{{unix.ST_NOSUID, unix.MS_NOSUID}, {unix.ST_NODEV, unix.MS_NODEV},
		{unix.ST_NOEXEC, unix.MS_NOEXEC}, {unix.ST_NOATIME, unix.MS_NOATIME},
		{unix.ST_NODIRATIME, unix.MS_NODIRATIME}, {unix.ST_RELATIME, unix.MS_RELATIME}} {
		if st.Flags&f[0] != 0 {
			flags |= uintptr(f[1])
		}
	}
	if readOnly {
		flags |= unix.MS_RDONLY
	}
	if err := unix.Mount("none", dir, "", flags, ""); err != nil {
		return fmt.Errorf("remount %s read-only=%v: %w", dir, readOnly, err)
	}
	return nil
}

// dropAdmin removes CAP_SYS_ADMIN from the thread for good: a process
// running as root could otherwise enter another mount namespace (setns)
// where the git directory is writable. Landlock already forbids mounting.
// A user other than root holds it only as the ambient capability the
// helper was started with: cleared here, it is gone at the exec (dropping
// it from the bounding set would need CAP_SETPCAP, which such a helper
// lacks, and is not needed).
func dropAdmin() error {
	err := unix.Prctl(unix.PR_CAPBSET_DROP, unix.CAP_SYS_ADMIN, 0, 0, 0)
	if err != nil && err != unix.EINVAL && os.Geteuid() == 0 {
		return fmt.Errorf("drop CAP_SYS_ADMIN from the bounding set: %w", err)
	}
	_ = unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capget: %w", err)
	}
	bit := uint32(1) << (unix.CAP_SYS_ADMIN % 32)
	i := unix.CAP_SYS_ADMIN / 32
	data[i].Effective &^= bit
	data[i].Permitted &^= bit
	data[i].Inheritable &^= bit
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capset: %w", err)
	}
	return nil
}

// devices a program writes to whatever it does.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx"}

// restrict enforces the Landlock ruleset on this thread: read and execute
// everywhere, write beneath the writable roots, no signal or abstract
// socket to processes outside. The network is left alone.
func restrict(p Policy) error {
	cfg := landlock.V11.BestEffort()
	cfg.HandledAccessNet = 0
	var dirs, files []string
	for _, w := range p.Writable {
		if fi, err := os.Stat(w); err == nil && !fi.IsDir() {
			files = append(files, w)
		} else {
			dirs = append(dirs, w)
		}
	}
	rules := []landlock.Rule{
		landlock.RODirs("/"),
		landlock.RWDirs(dirs...).IgnoreIfMissing(),
		landlock.RWFiles(append(files, devices...)...).IgnoreIfMissing(),
		landlock.RWDirs("/dev/pts", "/dev/shm").IgnoreIfMissing(),
	}
	fd, flags, err := cfg.NewRulesetFD(rules...)
	if err != nil {
		return fmt.Errorf("landlock ruleset: %w", err)
	}
	if fd < 0 {
		return fmt.Errorf("landlock is not available on this kernel")
	}
	defer unix.Close(fd)
	if err := llsys.LandlockRestrictSelf(fd, flags); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	return nil
}
