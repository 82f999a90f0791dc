// Package sandbox confines a child process to the files it may write: an
// agent runs with the user's rights, so anything it can write (the git
// directory, HOME, the toolchains) it may change to make its task look
// done. Rather than detect each such change afterwards, the operating
// system refuses the write: on Linux, Landlock (writes only beneath the
// allowed roots, no signals to processes outside the sandbox) plus a mount
// namespace in which the git directory is a read-only bind mount; on macOS
// a Seatbelt profile (built, not run, here).
//
// Go cannot set up mounts or Landlock between fork and exec, so the child
// is planx itself, re-executed as a small helper (Main) that confines its
// own thread and then execs the real program. The package imports nothing
// of planx.
package sandbox
