// Package gitops is the only code in planx that runs git. Writes go through
// the git CLI so index.lock, hooks, reflog, signing, includes, autocrlf, LFS
// and every ignore file are honoured; cheap reads may use go-git in-process.
// Today three do, on the per-task fast path where a child process per
// question costs the most: HEAD and its commit (HeadNow, headCommit) and the
// tree entries a splice replaces (splice.go). Every other read uses the CLI:
// one parser of git's output per fact, and the tests use the same CLI as
// oracle.
//
// Every git child runs as `git -C <root>` with LC_ALL=C (git commit, which
// runs the user's hooks, keeps the user's locale and gets only its messages
// in English, see hookEnv) and GIT_TERMINAL_PROMPT=0, in a process group of
// its own; on Ctrl-C git is never signalled, a commit's hooks are (see
// interruptible);
// reads add --no-optional-locks, and the variables a
// hook exports to pin a repository (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE,
// GIT_PREFIX, ...) are dropped so planx started from a hook still works on
// the repository it opened.
//
// Decisions callers rely on:
//
//   - Status uses --porcelain=v2 -z --untracked-files=all --no-renames: a
//     rename is a 'D' plus an 'A', every untracked file is listed on its own,
//     ignored files never appear.
//   - Commit sends the message on stdin with --cleanup=whitespace: '#' lines
//     (markdown headings) and the trailer block survive, surrounding blank
//     lines and trailing spaces do not. A clean index without AllowEmpty is
//     ErrNothingToCommit.
//   - A commit refused by a hook is a *HookError. Which hook is inferred (git
//     does not say): see Repo.hookFailure.
//   - Writes that find a lock held (index.lock, a ref's .lock) retry 20 times
//     50–100 ms apart and then fail wrapping ErrLocked; the lock is never
//     removed. Every *GitError caused by a held lock wraps ErrLocked.
//   - ParseTrailers follows commit-message rules (`git log
//     --format=%(trailers)`, `git interpret-trailers --parse --no-divider`):
//     a "---" line is not a patch divider.
package gitops
