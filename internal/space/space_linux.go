package space

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Space is a copy-on-write view of the machine over a work tree. Make it
// with Open, run programs in it with Run (or Wrap), read what they did with
// Changes, GitChanges and Outside, copy the change out with Apply, and
// remove it with Close.
type Space struct {
	root string // the work tree, absolute, symbolic links resolved
	dir  string // the state: tree/{u,w}, layers/<path>/{u,w}, root, status
	layout
	exe string // the helper: planx (or the test binary) itself
	// persist are bound into the space, written through (Options.Persist).
	persist []string
	// hide are covered by an empty directory in the space (Options.Hide).
	hide []string
	at   string // where the program sees root (Options.At), or ""
	// treeOnly: only the work tree is layered (Options.TreeOnly).
	treeOnly bool

	mu       sync.Mutex
	warnings []string
}

// Open makes a space over o.Root with its layers in o.Dir. Nothing runs
// yet: Open only makes directories.
func Open(o Options) (*Space, error) {
	if o.Root == "" || o.Dir == "" {
		return nil, errors.New("space: Root and Dir are required")
	}
	root, err := realDir(o.Root)
	if err != nil {
		return nil, fmt.Errorf("space: work tree: %w", err)
	}
	if abs, err := filepath.Abs(o.Dir); err == nil && (within(abs, root) || within(abs, o.Root)) {
		return nil, fmt.Errorf("space: the state directory %s is inside the work tree %s", abs, root)
	}
	if err := os.MkdirAll(o.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("space: state directory: %w", err)
	}
	dir, err := realDir(o.Dir)
	if err != nil {
		return nil, fmt.Errorf("space: state directory: %w", err)
	}
	if within(dir, root) || within(root, dir) {
		return nil, fmt.Errorf("space: the state directory %s and the work tree %s overlap", dir, root)
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("space: find the helper (planx's own executable): %w", err)
	}
	if o.At != "" {
		if !filepath.IsAbs(o.At) || filepath.Clean(o.At) != o.At || o.At == "/" {
			return nil, fmt.Errorf("space: At %q is not a clean absolute path", o.At)
		}
		if _, err := os.Lstat(o.At); err == nil {
			return nil, fmt.Errorf("space: At %s exists on the machine", o.At)
		}
	}
	if o.TreeOnly && (o.At != "" || len(o.Persist) > 0 || len(o.Hide) > 0) {
		return nil, errors.New("space: a space over the work tree only takes neither At, Persist nor Hide")
	}
	s := &Space{root: root, dir: dir, exe: exe, layout: layout(dir), at: o.At, treeOnly: o.TreeOnly}
	for _, p := range o.Persist {
		if r, err := filepath.EvalSymlinks(p); err == nil && filepath.IsAbs(r) {
			s.persist = append(s.persist, r)
		}
	}
	for _, p := range o.Hide {
		r, err := realDir(p)
		if err != nil {
			return nil, fmt.Errorf("space: a directory to hide: %w", err)
		}
		s.hide = append(s.hide, r)
	}
	for _, d := range []string{s.treeUpper(), s.treeWork(), s.layersDir(), s.skeleton()} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("space: %w", err)
		}
	}
	return s, nil
}

func realDir(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	r, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(r)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a directory", r)
	}
	return r, nil
}

// Root is the work tree, absolute and free of symbolic links: the path the
// program sees it at too.
func (s *Space) Root() string { return s.root }

// layout names the parts of a space's state directory.
type layout string

func (l layout) treeUpper() string  { return filepath.Join(string(l), "tree", "u") }
func (l layout) treeWork() string   { return filepath.Join(string(l), "tree", "w") }
func (l layout) layersDir() string  { return filepath.Join(string(l), "layers") }
func (l layout) skeleton() string   { return filepath.Join(string(l), "root") }
func (l layout) statusPath() string { return filepath.Join(string(l), "status") }

// GitUpper is the upper layer of the work tree's .git: the files git wrote
// in the space (objects, refs, the index, hooks). To read the repository
// as the program left it, run git inside the space (Run).
func (s *Space) GitUpper() string { return filepath.Join(s.treeUpper(), ".git") }

// UpperOf is where a write of the program to the absolute path p lands
// (it may not exist): in the work tree's layer for a path in the work
// tree, otherwise in the layer of the directory of / that holds it. For a
// work tree whose .git is a file (a linked work tree, a wave's slot), the
// commits the program made are in UpperOf of the common git directory. It
// returns false for a path no layer holds (/proc, /dev, /sys, a directory
// that holds mount points).
func (s *Space) UpperOf(p string) (string, bool) {
	p = filepath.Clean(p)
	if within(p, s.root) {
		rel, _ := filepath.Rel(s.root, p)
		return filepath.Join(s.treeUpper(), rel), true
	}
	for d := p; d != "/" && d != "."; d = filepath.Dir(d) {
		layer := filepath.Join(s.layersDir(), url.PathEscape(strings.TrimPrefix(d, "/")))
		if _, err := os.Stat(layer); err == nil {
			rel, _ := filepath.Rel(d, p)
			return filepath.Join(layer, "u", rel), true
		}
	}
	return "", false
}

// helperSpec is what Wrap tells the helper.
type helperSpec struct {
	Root    string   `json:"root"`
	Dir     string   `json:"dir"`
	Program string   `json:"program"`
	Persist []string `json:"persist,omitempty"`
	Hide    []string `json:"hide,omitempty"`
	At      string   `json:"at,omitempty"`
	// TreeOnly: mount the work tree's overlay in place, nothing else.
	TreeOnly bool `json:"tree_only,omitempty"`
}

// status is what the helper reports, in the state directory, once the
// space is set up or failed to be.
type status struct {
	Error    string   `json:"error,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// Wrap makes cmd run in the space: its program becomes the helper, which
// builds the space, then starts the original program with the original
// arguments, environment and working directory (the same path, seen
// through the space). Run one wrapped command at a time; afterwards
// SetupError says whether the space was set up. Killing the helper (as
// exec.CommandContext does) kills everything in the space.
func (s *Space) Wrap(cmd *exec.Cmd) error {
	if cmd.Err != nil {
		return nil // the program was not found: Start reports it
	}
	spec, err := json.Marshal(helperSpec{Root: s.root, Dir: s.dir, Program: cmd.Path, Persist: s.persist, At: s.at, Hide: s.hide, TreeOnly: s.treeOnly})
	if err != nil {
		return err
	}
	if err := os.Remove(s.statusPath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("space: %w", err)
	}
	cmd.Path, cmd.Args = s.exe, append([]string{"planx", HelperArg, string(spec), "--"}, cmd.Args...)
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	namespaces(cmd.SysProcAttr)
	return nil
}

// namespaces starts the helper in a user, mount and PID namespace of its
// own. The user keeps its own ids inside. Root maps every id to itself, so
// that it keeps its rights over files of other users; another user maps
// only itself and keeps helperCaps (in the new namespace) across the exec
// of the helper, which drops them before it starts the program.
func namespaces(a *syscall.SysProcAttr) {
	a.Cloneflags |= unix.CLONE_NEWUSER | unix.CLONE_NEWNS | unix.CLONE_NEWPID
	a.Pdeathsig = syscall.SIGKILL
	uid, gid := os.Geteuid(), os.Getegid()
	if uid == 0 {
		all := []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: math.MaxUint32}}
		a.UidMappings, a.GidMappings = all, all
		a.GidMappingsEnableSetgroups = true
		return
	}
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	a.GidMappingsEnableSetgroups = false
	a.AmbientCaps = append(a.AmbientCaps, helperCaps...)
}

// helperCaps are what a helper started by a user other than root needs,
// in its user namespace (over the user's own files only): CAP_SYS_ADMIN to
// mount; CAP_DAC_OVERRIDE because overlayfs makes its work directory mode
// 0 and then creates files in it with the mounter's credentials (without
// it the mount fails with EACCES); the rest so that a copy-up keeps
// owners, set-group-id bits and times as they were.
var helperCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_DAC_OVERRIDE, unix.CAP_FOWNER, unix.CAP_CHOWN, unix.CAP_FSETID}

// Run runs cmd (not started, as exec.Command makes it) in the space and
// waits for it and for every process it started. Cancelling ctx kills them
// all. The error is cmd's (an *exec.ExitError when it failed; killed by a
// signal, it exits 128+signal) or why the space could not be set up.
func (s *Space) Run(ctx context.Context, cmd *exec.Cmd) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.Wrap(cmd); err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("space: start the helper: %w", err)
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			_ = cmd.Process.Kill() // process 1 of the namespace: all die with it
		case <-done:
		}
	}()
	err := cmd.Wait()
	close(done)
	if serr := s.SetupError(); serr != nil {
		return serr
	}
	if ctx.Err() != nil && err != nil {
		return fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	return err
}

// SetupError reads what the helper of the last wrapped command reported:
// nil when the space was set up (its warnings go to Warnings), or why not.
// Call it after the command ended.
func (s *Space) SetupError() error {
	b, err := os.ReadFile(s.statusPath())
	if err != nil {
		return fmt.Errorf("space: the helper did not report (killed before the space was set up?): %w", err)
	}
	var st status
	if err := json.Unmarshal(b, &st); err != nil {
		return fmt.Errorf("space: the helper's report: %w", err)
	}
	s.warnings = st.Warnings
	if st.Error != "" {
		forgetProbes() // the machine no longer lets spaces be made as it did
		return errors.New("space: " + st.Error)
	}
	return nil
}

// Warnings are what the last Run could not make copy-on-write and made
// read-only instead (an overlay the kernel refused over a directory).
func (s *Space) Warnings() []string { return s.warnings }

// Close removes the space's state: its layers and whatever was written in
// it. The space must not be running.
func (s *Space) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var first error
	for _, d := range []string{filepath.Join(s.dir, "tree"), s.layersDir(), s.skeleton(), s.statusPath(), filepath.Join(s.dir, "skeleton.json")} {
		if err := RemoveAll(d); err != nil && first == nil {
			first = err
		}
	}
	_ = os.Remove(s.dir) // only if Open made it or nothing else is in it
	return first
}

// Probe reports whether spaces work here: it runs /bin/true in one over
// an empty directory. The error says what the kernel refused. Its scratch
// is made where the layers of spaces over the work tree near go
// (StateParent), never inside it, so that a probe running beside a task
// (Jail.Warm) writes nothing the task's checks would see; with near "",
// in the temporary directory.
func Probe(near string) error {
	parent := ""
	if near != "" {
		var err error
		if parent, err = StateParent(near); err != nil {
			return err
		}
	}
	tmp, err := os.MkdirTemp(parent, "planx-space-probe-")
	if err != nil {
		return err
	}
	defer RemoveAll(tmp)
	if err := os.Mkdir(filepath.Join(tmp, "tree"), 0o755); err != nil {
		return err
	}
	s, err := Open(Options{Root: filepath.Join(tmp, "tree"), Dir: filepath.Join(tmp, "state")})
	if err != nil {
		return err
	}
	defer s.Close()
	var out bytes.Buffer
	cmd := exec.Command("true")
	cmd.Stderr = &out
	if err := s.Run(context.Background(), cmd); err != nil {
		return fmt.Errorf("%w: %s", err, out.String())
	}
	return nil
}

// HoldsMounts reports whether a mount point lies beneath the directory
// dir (symbolic links resolved): the kernel refuses an overlay over it in
// a user namespace, so a space over it cannot be set up.
func HoldsMounts(dir string) bool {
	root, err := realDir(dir)
	if err != nil {
		return false
	}
	mounts, err := mountPoints()
	if err != nil {
		return false
	}
	b := builder{mounts: mounts}
	return b.holdsMounts(root)
}
