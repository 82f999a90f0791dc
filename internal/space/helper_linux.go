package space

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Main is the helper: args are what follows HelperArg (the spec, "--", the
// program's argv). It runs as process 1 of a new user, mount and PID
// namespace (see namespaces): it builds the space, pivots into it, starts
// the program, reaps every process in the namespace, and returns the
// program's exit code (128+signal when a signal killed it). When it
// returns, the kernel kills whatever the program left behind. It returns
// 126 when the space could not be built, 127 when the program could not be
// started.
func Main(args []string, stderr io.Writer) int {
	if len(args) < 3 || args[1] != "--" {
		fmt.Fprintln(stderr, "planx space: usage: planx "+HelperArg+" SPEC -- ARGV...")
		return 126
	}
	var spec helperSpec
	if err := json.Unmarshal([]byte(args[0]), &spec); err != nil {
		fmt.Fprintf(stderr, "planx space: bad spec: %v\n", err)
		return 126
	}
	// Ambient capabilities are per thread, and the program must be forked
	// from the thread they were cleared on.
	runtime.LockOSThread()
	report, err := os.OpenFile(filepath.Join(spec.Dir, "status"), os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_APPEND, 0o600)
	if err != nil {
		fmt.Fprintf(stderr, "planx space: status: %v\n", err)
		return 126
	}
	b := &builder{spec: spec}
	err = b.build()
	st := status{Warnings: b.warnings}
	if err != nil {
		st.Error = err.Error()
	}
	out, _ := json.Marshal(st)
	_, werr := report.Write(out)
	if cerr := report.Close(); werr == nil {
		werr = cerr
	}
	if err != nil || werr != nil {
		fmt.Fprintf(stderr, "planx space: %v\n", errors.Join(err, werr))
		return 126
	}
	return runProgram(spec.Program, args[2:], stderr)
}

// runProgram starts the program without the helper's capabilities and
// reaps every child until the program itself exits.
func runProgram(path string, argv []string, stderr io.Writer) int {
	_ = unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var caps [2]unix.CapUserData
	if unix.Capget(&hdr, &caps[0]) == nil {
		caps[0].Inheritable, caps[1].Inheritable = 0, 0
		_ = unix.Capset(&hdr, &caps[0])
	}
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT)
	wd, _ := os.Getwd()
	pid, err := syscall.ForkExec(path, argv, &syscall.ProcAttr{Dir: wd, Env: os.Environ(), Files: []uintptr{0, 1, 2}})
	if err != nil {
		fmt.Fprintf(stderr, "planx space: start %s: %v\n", path, err)
		if errors.Is(err, fs.ErrNotExist) {
			return 127
		}
		return 126
	}
	go func() {
		for s := range sigs {
			_ = syscall.Kill(pid, s.(syscall.Signal))
		}
	}()
	for {
		var ws syscall.WaitStatus
		wpid, err := syscall.Wait4(-1, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			fmt.Fprintf(stderr, "planx space: wait: %v\n", err)
			return 126
		}
		if wpid != pid {
			continue // an orphan the namespace handed to process 1
		}
		if ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ws.ExitStatus()
	}
}

// builder makes the space's root in the helper's mount namespace.
type builder struct {
	spec     helperSpec
	newRoot  string
	mounts   []string          // mount points of the namespace, as it was copied
	made     map[string]string // the skeleton: path (as seen inside) -> kind
	warnings []string
}

func (b *builder) build() error {
	if err := unix.Mount("none", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	if b.spec.TreeOnly {
		return b.treeOnly()
	}
	wd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("working directory: %w", err)
	}
	mounts, err := mountPoints()
	if err != nil {
		return err
	}
	b.mounts = mounts
	b.newRoot = filepath.Join(b.spec.Dir, "root")
	if err := os.MkdirAll(b.newRoot, 0o755); err != nil {
		return err
	}
	if err := unix.Mount(b.newRoot, b.newRoot, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind the new root: %w", err)
	}
	b.made = map[string]string{}
	if err := b.populate("/", b.newRoot); err != nil {
		return err
	}
	if data, err := json.Marshal(b.made); err != nil {
		return err
	} else if err := os.WriteFile(filepath.Join(b.spec.Dir, "skeleton.json"), data, 0o600); err != nil {
		return err
	}
	if err := b.tree(); err != nil {
		return err
	}
	// The state directory, seen through the overlay of its parent, shows
	// the layers (their roots answer ELOOP): the program sees an empty,
	// read-only directory instead.
	if fi, err := os.Stat(b.newRoot + b.spec.Dir); err == nil && fi.IsDir() {
		if err := unix.Mount("tmpfs", b.newRoot+b.spec.Dir, "tmpfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, "size=4k,mode=0755"); err != nil {
			return fmt.Errorf("hide the state directory: %w", err)
		}
	}
	// Paths the program writes through to the machine, over the layers.
	for _, p := range b.spec.Persist {
		if err := unix.Mount(p, b.newRoot+p, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("persist %s: %w", p, err)
		}
	}
	if err := b.hide(); err != nil {
		return err
	}
	if err := unix.Mount("proc", b.newRoot+"/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mount /proc: %w", err)
	}
	if err := os.Chdir(b.newRoot); err != nil {
		return err
	}
	if err := unix.PivotRoot(".", "."); err != nil {
		return fmt.Errorf("pivot_root: %w", err)
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detach the old root: %w", err)
	}
	if b.spec.At != "" && within(wd, b.spec.Root) {
		rel, _ := filepath.Rel(b.spec.Root, wd)
		wd = filepath.Join(b.spec.At, rel)
		_ = os.Setenv("PWD", wd) // the program's shell takes it as given
	}
	if err := os.Chdir(wd); err != nil {
		if err := os.Chdir("/"); err != nil {
			return err
		}
		b.warnings = append(b.warnings, fmt.Sprintf("working directory %s: %v; started in /", wd, err))
	}
	return nil
}

// treeOnly makes the lighter space (helperSpec.TreeOnly): the work
// tree's overlay mounted over the real directory at its own path, with
// the real .git directory bound over the overlay's (the program's git
// works on the repository itself), and a /proc of the PID namespace's own
// over the real one, so that the program's ps and kill see only its
// processes. No new root: the rest of the machine is written through.
func (b *builder) treeOnly() error {
	wd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("working directory: %w", err)
	}
	root := b.spec.Root
	// The real .git, held open to be bound over the overlay's.
	git := -1
	if fi, err := os.Lstat(filepath.Join(root, ".git")); err == nil && fi.IsDir() {
		if git, err = unix.Open(filepath.Join(root, ".git"), unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err != nil {
			return fmt.Errorf("the work tree's .git: %w", err)
		}
		defer unix.Close(git)
	}
	if err := overlay(root, filepath.Join(b.spec.Dir, "tree", "u"), filepath.Join(b.spec.Dir, "tree", "w"), root); err != nil {
		return fmt.Errorf("the work tree: %w", err)
	}
	if git >= 0 {
		if err := unix.Mount(fmt.Sprintf("/proc/self/fd/%d", git), filepath.Join(root, ".git"), "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("bind the work tree's .git: %w", err)
		}
	}
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mount /proc: %w", err)
	}
	// The working directory still names the directory beneath the new
	// mount: entered again, it is the overlay's.
	if err := os.Chdir(wd); err != nil {
		return fmt.Errorf("working directory %s: %w", wd, err)
	}
	return nil
}

// tree mounts the work tree in the new root: an overlay at its own path,
// or, with At, the directory itself bound at At, written through.
func (b *builder) tree() error {
	if b.spec.At == "" {
		tree := b.newRoot + b.spec.Root
		if err := overlay(b.spec.Root, filepath.Join(b.spec.Dir, "tree", "u"), filepath.Join(b.spec.Dir, "tree", "w"), tree); err != nil {
			return fmt.Errorf("the work tree: %w", err)
		}
		return nil
	}
	at := b.newRoot + b.spec.At
	if err := os.MkdirAll(at, 0o755); err != nil {
		return fmt.Errorf("the work tree's place %s: %w", b.spec.At, err)
	}
	if err := unix.Mount(b.spec.Root, at, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("bind the work tree at %s: %w", b.spec.At, err)
	}
	return nil
}

// Kinds of the entries of the skeleton, the plain directories of the new
// root (those that hold mount points), as skeleton.json records them for
// Outside: a write there is not in any layer.
const (
	kindMount = "mount" // a mount point: an overlay, a bind, /proc, /dev, /sys
	kindDir   = "dir"   // a plain directory, filled the same way
	kindLink  = "link"  // a symbolic link, copied
	kindCopy  = "copy"  // a small file, copied
)

// populate fills dst, a directory of the new root, with the entries of
// src, which holds mount points: each directory without mount points
// beneath it becomes an overlay; one with mount points is a plain
// directory filled the same way; symbolic links are copied, small files
// too (larger ones, sockets and the like are bound in).
func (b *builder) populate(src, dst string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		b.warnings = append(b.warnings, fmt.Sprintf("%s: %v: left empty", src, err))
		return nil
	}
	for _, e := range entries {
		p, d := filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())
		kind, err := b.place(p, d)
		if err != nil {
			return err
		}
		if kind != "" {
			b.made[p] = kind
		}
	}
	return nil
}

// place makes d, the entry of the new root for p, and says what it made
// ("" for nothing).
func (b *builder) place(p, d string) (string, error) {
	switch p {
	case "/proc":
		return kindMount, mkdir(d, 0o555) // mounted last: fresh for the PID namespace
	case "/sys":
		return kindMount, bindSys(d)
	case "/dev":
		return kindMount, makeDev(d)
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return "", nil
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return kindLink, copyLink(p, d)
	case fi.IsDir():
		if err := mkdir(d, fi.Mode().Perm()); err != nil {
			return "", err
		}
		if b.holdsMounts(p) {
			return kindDir, b.populate(p, d)
		}
		name := url.PathEscape(strings.TrimPrefix(p, "/"))
		layer := filepath.Join(b.spec.Dir, "layers", name)
		if err := overlay(p, filepath.Join(layer, "u"), filepath.Join(layer, "w"), d); err != nil {
			b.warnings = append(b.warnings, fmt.Sprintf("%s: overlay: %v: read-only instead", p, err))
			return kindMount, bindReadOnly(p, d, true)
		}
		return kindMount, nil
	case fi.Mode().IsRegular() && fi.Size() <= 1<<20:
		return kindCopy, copySmall(p, d, fi)
	}
	if _, err := os.Lstat(d); errors.Is(err, fs.ErrNotExist) {
		if f, err := os.OpenFile(d, os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
			f.Close()
		}
	}
	if err := bindReadOnly(p, d, false); err != nil {
		b.warnings = append(b.warnings, fmt.Sprintf("%s: %v: left out", p, err))
		return "", nil
	}
	return kindMount, nil
}

// holdsMounts reports whether a mount point lies strictly beneath dir: an
// overlay of dir would not show it, and the kernel refuses one over mounts
// copied into a user namespace anyway.
func (b *builder) holdsMounts(dir string) bool {
	i := sort.SearchStrings(b.mounts, dir+"/")
	return i < len(b.mounts) && strings.HasPrefix(b.mounts[i], dir+"/")
}

// mountPoints lists the mount points of the namespace, sorted.
func mountPoints() ([]string, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) > 4 {
			out = append(out, unescapeMount(fields[4]))
		}
	}
	sort.Strings(out)
	return out, sc.Err()
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				sb.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// overlay mounts lower with its upper and work directories (made if
// missing) on target. user.* extended attributes (userxattr) mark
// whiteouts and opaque directories: the only kind a user namespace may
// write.
func overlay(lower, upper, work, target string) error {
	for _, d := range []string{upper, work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	// A volatile overlay marks its work directory (work/incompat/volatile)
	// so that it is not mounted again; the work directory is the kernel's
	// scratch, so a space run again (the next step of a task) starts it
	// afresh.
	if err := os.RemoveAll(filepath.Join(work, "work")); err != nil {
		return err
	}
	opts := "lowerdir=" + escapeOpt(lower) + ",upperdir=" + escapeOpt(upper) + ",workdir=" + escapeOpt(work) + ",userxattr,volatile"
	if err := unix.Mount("overlay", target, "overlay", 0, opts); err != nil {
		return fmt.Errorf("overlay %s on %s: %w", lower, target, err)
	}
	// The mark is read only when mounting: gone now, it leaves the state
	// directory as a plain overlay would (work/work empty, which planx
	// removes without entering it: the kernel makes it mode 0).
	if err := os.RemoveAll(filepath.Join(work, "work", "incompat")); err != nil {
		return fmt.Errorf("overlay %s on %s: %w", lower, target, err)
	}
	return nil
}

// escapeOpt escapes what overlay's option parser splits on.
func escapeOpt(p string) string {
	r := strings.NewReplacer(`\`, `\\`, `,`, `\,`, `:`, `\:`)
	return r.Replace(p)
}

func mkdir(d string, perm fs.FileMode) error {
	if err := os.Mkdir(d, perm|0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

func copyLink(p, d string) error {
	target, err := os.Readlink(p)
	if err != nil {
		return err
	}
	if old, err := os.Readlink(d); err == nil && old == target {
		return nil
	}
	_ = os.Remove(d)
	return os.Symlink(target, d)
}

// copySmall copies a small file of a directory that holds mount points
// into the skeleton, once: a later Run sees what an earlier one wrote.
func copySmall(p, d string, fi fs.FileInfo) error {
	if _, err := os.Lstat(d); err == nil {
		return nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil // unreadable: left out
	}
	return os.WriteFile(d, data, fi.Mode().Perm())
}

// bindReadOnly binds p on d (which exists), recursively or not, and makes
// it read-only, keeping the flags a user namespace may not drop.
func bindReadOnly(p, d string, recursive bool) error {
	flags := uintptr(unix.MS_BIND)
	if recursive {
		flags |= unix.MS_REC
	}
	if err := unix.Mount(p, d, "", flags, ""); err != nil {
		return fmt.Errorf("bind %s: %w", p, err)
	}
	if recursive {
		attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}
		if err := unix.MountSetattr(-1, d, unix.AT_RECURSIVE, &attr); err == nil {
			return nil
		}
	}
	var st unix.Statfs_t
	if err := unix.Statfs(d, &st); err != nil {
		return err
	}
	ro := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY)
	for _, f := range [][2]int64{{unix.ST_NOSUID, unix.MS_NOSUID}, {unix.ST_NODEV, unix.MS_NODEV},
		{unix.ST_NOEXEC, unix.MS_NOEXEC}, {unix.ST_NOATIME, unix.MS_NOATIME},
		{unix.ST_NODIRATIME, unix.MS_NODIRATIME}, {unix.ST_RELATIME, unix.MS_RELATIME}} {
		if st.Flags&f[0] != 0 {
			ro |= uintptr(f[1])
		}
	}
	if err := unix.Mount("none", d, "", ro, ""); err != nil {
		return fmt.Errorf("make %s read-only: %w", d, err)
	}
	return nil
}

// bindSys binds the real /sys read-only.
func bindSys(d string) error {
	if err := mkdir(d, 0o555); err != nil {
		return err
	}
	if err := bindReadOnly("/sys", d, true); err != nil {
		return fmt.Errorf("/sys: %w", err)
	}
	return nil
}

// makeDev makes /dev: a tmpfs with the real null, zero, full, random,
// urandom and tty bound in, a devpts of its own (so a program may open
// pseudo-terminals through /dev/ptmx, and sees only its own), a private
// /dev/shm and the usual links into /proc.
func makeDev(d string) error {
	if err := mkdir(d, 0o755); err != nil {
		return err
	}
	if err := unix.Mount("tmpfs", d, "tmpfs", unix.MS_NOSUID|unix.MS_NOEXEC, "mode=0755,size=1m"); err != nil {
		return fmt.Errorf("/dev: %w", err)
	}
	for _, n := range []string{"null", "zero", "full", "random", "urandom", "tty"} {
		if _, err := os.Stat("/dev/" + n); err != nil {
			continue
		}
		f, err := os.OpenFile(filepath.Join(d, n), os.O_CREATE|os.O_WRONLY, 0o666)
		if err != nil {
			return err
		}
		f.Close()
		if err := unix.Mount("/dev/"+n, filepath.Join(d, n), "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("/dev/%s: %w", n, err)
		}
	}
	for name, target := range map[string]string{"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0",
		"stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2", "ptmx": "pts/ptmx"} {
		if err := os.Symlink(target, filepath.Join(d, name)); err != nil {
			return err
		}
	}
	pts := filepath.Join(d, "pts")
	if err := mkdir(pts, 0o755); err != nil {
		return err
	}
	if err := unix.Mount("devpts", pts, "devpts", unix.MS_NOSUID|unix.MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620"); err != nil {
		return fmt.Errorf("/dev/pts: %w", err)
	}
	shm := filepath.Join(d, "shm")
	if err := mkdir(shm, 0o777); err != nil {
		return err
	}
	if err := unix.Mount("tmpfs", shm, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
		return fmt.Errorf("/dev/shm: %w", err)
	}
	return nil
}

// hide covers each directory the program must not read with an empty,
// read-only one (helperSpec.Hide). A directory the space cannot cover
// fails it: a space that showed what it was asked to hide would be worse
// than none.
func (b *builder) hide() error {
	for _, p := range b.spec.Hide {
		if err := unix.Mount("tmpfs", b.newRoot+p, "tmpfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, "size=4k,mode=0755"); err != nil {
			return fmt.Errorf("hide %s: %w", p, err)
		}
	}
	return nil
}
