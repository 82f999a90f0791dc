// Package gitops is the only code in planx that runs git. Writes go through
// the git CLI so index.lock, hooks, reflog, signing, includes, autocrlf, LFS
// and every ignore file are honoured; cheap reads may use go-git in-process.
// Today a few do, on the per-task fast path where a child process per
// question costs the most: HEAD and its commit (HeadNow, Commits.headCommit), a
// commit's tree and a tree without some paths (Objects.TreeOf,
// Objects.TreeWithout) and the tree entries a splice replaces.
// Every other read uses the CLI: one parser of git's output per fact, and the
// tests use the same CLI as oracle.
//
// Repo is a work tree opened by Open: its HEAD, status, and what moves HEAD
// and the work tree together (the resets, Discard) or puts paths back
// (ResetIndex, RestoreFiles, RemoveFiles). Each other concern
// is a small value type reached from a Repo, holding the repository's git
// runner and the paths it needs, cheap to make at each call:
//
//   - Commits (Repo.Commits): committing (Commit, CommitIndex,
//     CommitIndexWith, CommitUnchanged, and RunHook for commits made
//     without git commit) and snapshots of the work tree (Snapshot).
//   - Index (Repo.Index): the staging area, what staging leaves out
//     (ignored files, hidden entries), and the index planx knows it left
//     holding a commit's tree.
//   - Refs (Repo.Refs): update, delete, resolve and list refs.
//   - History (Repo.History): reading commits (Log, Unpushed, Mentioning,
//     ShowFile, IsAncestor, ...); it changes nothing.
//   - Objects (Repo.Objects): blobs, trees and commits in the object
//     database, touching no index, work tree or ref.
//   - Notes (Repo.Notes): git notes, where a task's record lives.
//   - Worktrees (Repo.Worktrees): linked work trees for verification and
//     parallel tasks.
//   - Landing (Repo.Landing): the branch, index and work tree moved
//     together to a descendant commit (Advance, Tree), and the reads a
//     landing is judged by (Diff, IndexEntries, HashFiles).
//   - Config (Repo.Config): config, hooks, identity and signing, where
//     git reads its ignore rules, and pinning settings for a run.
//
// What planx builds on these lives with the idea it serves, calling them
// (docs/architecture.md names where).
//
// Pin (Config) changes every later command of the Repo, whichever type
// runs it: they share one runner.
//
// Every git child runs as `git -C <root>` with LC_ALL=C (git commit, which
// runs the user's hooks, keeps the user's locale and gets only its messages
// in English, see hookEnv), GIT_TERMINAL_PROMPT=0 and GIT_NO_REPLACE_OBJECTS=1
// (added in run, the one place a git child starts: planx reads objects as
// stored, never through a refs/replace/* ref), in a process group of
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
//     does not say): see hookFailure.
//   - Writes that find a lock held (index.lock, a ref's .lock) retry 20 times
//     50–100 ms apart and then fail wrapping ErrLocked; the lock is never
//     removed. Every *GitError caused by a held lock wraps ErrLocked.
package gitops
