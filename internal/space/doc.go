// Package space runs a task's executor in a task space: a copy-on-write
// view of the whole machine in which the executor may write anything it
// could write outside, and nothing it writes reaches the user. planx reads
// the task's change to the work tree from the space afterwards and applies
// it itself.
//
// Redirect, don't deny: agents write their own state (~/.claude, ~/.codex,
// ~/.local), caches (~/.cache, the Go module cache), /tmp, pseudo-terminals,
// and they commit in the work tree. A space lets them, and keeps it all.
//
// How (Linux): Run starts the program through a helper (planx itself,
// re-executed, see Main) in a user, mount and PID namespace of its own. The
// helper builds a new root: every top-level directory of / is an overlay
// (the real directory is the read-only lower layer, a directory of the
// space's state is the upper layer); a directory that holds other mount
// points is rebuilt entry by entry instead (the kernel refuses an overlay
// over mounts it may not reveal); /dev is a small tmpfs with the usual
// devices and a private devpts, /proc is fresh for the PID namespace, /sys
// is the real one read-only. The work tree is an overlay of its own, at the
// same path, with its .git. The helper pivots into that root, starts the
// program and stays as process 1 of the namespace; when the program exits
// the helper exits and the kernel kills every process left in the
// namespace, however it detached (setsid, double fork).
//
// A space made with Options.TreeOnly is lighter: the helper mounts only
// the work tree's overlay, over the real directory at its own path, binds
// the real .git directory over the overlay's, and mounts a fresh /proc,
// without a new root: everything outside the work tree, and its .git, is
// the machine itself, read and written through.
//
// What a space guarantees:
//   - files and directories outside the space's state directory are as
//     they were: every write, creation, deletion, rename and chmod lands in
//     an upper layer (with TreeOnly: those in the work tree but its .git
//     directory; a write elsewhere reaches the machine);
//   - no process started in the space outlives the program;
//   - Changes reads only the work tree's upper layer: its cost grows with
//     what the task changed, not with the size of the tree.
//
// What it does not:
//   - it is not a security boundary against a hostile program: the network
//     is the user's (loopback included), a process running as root keeps
//     root's rights inside its user namespace (it could remount /sys
//     writable or write a device), and the program may read everything the
//     user may read;
//   - it does not give a user rights they lack: as a user other than root
//     the program may write (into the layer) what the user could write, and
//     gets "permission denied" for root's files as it would outside;
//   - a directory that holds other mount points (/, /mnt, /run on most
//     machines) is not an overlay but a plain directory of the space's own
//     root, made by and for the user: a program may write there even where
//     the user could not (Outside lists it; it is kept in the state
//     directory, not in a layer); /dev/shm is a private tmpfs;
//   - /dev holds only null, zero, full, random, urandom, tty, a private
//     devpts and /dev/shm: no disks, no /dev/fuse, /dev/kvm or GPUs (the
//     real /dev would hand a program running as root the raw disk);
//   - the work tree must not hold mount points of its own (the kernel
//     refuses an overlay over mounts copied into a user namespace: Run
//     fails with a setup error);
//   - empty directories are not part of the change set, nor are changes of
//     a directory's mode or of any file's times or owner.
//
// A space holds its layers until Close; each Run sees what earlier Runs
// wrote (run git inside it to read the commits a task made). One Run at a
// time.
package space
