package gitops

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	git "github.com/go-git/go-git/v5"
)

// SHA is a full hexadecimal object id; "" means none.
type SHA string

// ZeroSHA passed as Refs.Update's oldSHA means "the ref must not exist yet"
// (git update-ref's own convention).
const ZeroSHA SHA = "0000000000000000000000000000000000000000"

// Short returns the first 7 characters, as in planx's messages.
func (s SHA) Short() string {
	if len(s) > 7 {
		return string(s[:7])
	}
	return string(s)
}

// Repo is a git work tree. Its paths are absolute with symlinks resolved, so
// they compare equal to what git prints.
type Repo struct {
	Root      string          // work-tree top level
	GitDir    string          // this work tree's git dir (.git/worktrees/x in a linked worktree)
	CommonDir string          // the git dir shared by all work trees
	hooks     string          // where git runs hooks from (core.hooksPath honoured), as git said at Open
	clean     *cleanIndex     // set while the index is known to hold a commit's tree
	stale     []string        // paths whose index entries lag HEAD after CommitIndexWith
	gogit     *git.Repository // opened on first in-process read
	settings  *Settings       // read by Config().Settings, once
	runner
}

// Open finds the work tree containing dir (any subdirectory will do).
func Open(ctx context.Context, dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("open %s: %w", dir, err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("open %s: not a directory", dir)
	}
	g := runner{dir: abs, env: baseEnv(), retry: defaultLockRetry(), seen: &seenRefs{}}
	// Looked up once: exec.Command would search PATH again for each of the
	// several git processes a task needs.
	g.git, _ = exec.LookPath("git")
	// One rev-parse answers everything a command needs to start: every
	// planx command opens the repository, so each process saved here is
	// saved everywhere. --path-format=absolute (git 2.31) because
	// --git-common-dir is otherwise relative, and relative to what has
	// changed between git versions.
	out, err := g.run(ctx, nil, true, "rev-parse", "--is-inside-work-tree", "--path-format=absolute",
		"--show-toplevel", "--absolute-git-dir", "--git-common-dir", "--git-path", "hooks")
	if err != nil {
		return nil, openError(ctx, g, dir, err)
	}
	inside, rest, _ := strings.Cut(string(out), "\n")
	if inside != "true" {
		return nil, notWorkTree(dir)
	}
	lines := strings.Split(strings.TrimRight(rest, "\n"), "\n")
	if len(lines) != 4 {
		return nil, fmt.Errorf("git rev-parse: unexpected output %q", out)
	}
	hooks := lines[3]
	lines = lines[:3]
	for i, p := range lines {
		if lines[i], err = filepath.EvalSymlinks(p); err != nil {
			return nil, err
		}
	}
	g.dir = lines[0]
	return &Repo{Root: lines[0], GitDir: lines[1], CommonDir: lines[2], hooks: hooks, runner: g}, nil
}

// openError explains why rev-parse failed: outside any repository, or
// inside a git directory or a bare repository, where --show-toplevel fails.
func openError(ctx context.Context, g runner, dir string, err error) error {
	var ge *GitError
	if !errors.As(err, &ge) || ge.ExitCode != 128 {
		return err
	}
	out, err2 := g.run(ctx, nil, true, "rev-parse", "--is-inside-work-tree")
	if err2 == nil && strings.TrimSpace(string(out)) != "true" {
		return notWorkTree(dir)
	}
	if errors.As(err2, &ge) && ge.ExitCode == 128 {
		// Covers "not a git repository" and "dubious ownership"; git's own
		// words say which, and how to fix the latter.
		return fmt.Errorf("%w: %s is not in a usable git work tree (%s); run planx inside a git repository: git init",
			ErrRepoState, dir, ge.Stderr)
	}
	return err
}

func notWorkTree(dir string) error {
	return fmt.Errorf("%w: %s is inside a git directory or a bare repository, not a work tree; run planx inside a git repository's work tree (git init, or git worktree add)",
		ErrRepoState, dir)
}

// PlanxDir is planx's per-worktree state directory. It lives in GitDir so it
// is never committed and each linked worktree has its own.
func (r *Repo) PlanxDir() string { return filepath.Join(r.GitDir, "planx") }

// Rel makes a path repo-relative and slash-separated. Both sides are
// symlink-resolved because temp dirs (macOS /var → /private/var) and user
// checkouts are often reached through links. A path that does not exist yet
// is resolved through its longest existing parent.
func (r *Repo) Rel(abs string) (string, error) {
	p, err := filepath.Abs(abs)
	if err != nil {
		return "", err
	}
	resolved, rest := p, ""
	for {
		if real, err := filepath.EvalSymlinks(resolved); err == nil {
			resolved = filepath.Join(real, rest)
			break
		}
		parent := filepath.Dir(resolved)
		if parent == resolved {
			resolved = p
			break
		}
		rest = filepath.Join(filepath.Base(resolved), rest)
		resolved = parent
	}
	rel, err := filepath.Rel(r.Root, resolved)
	if err != nil {
		return "", err
	}
	if rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the repository %s", abs, r.Root)
	}
	return filepath.ToSlash(rel), nil
}

// Head describes what HEAD points at.
type Head struct {
	Ref      string // "refs/heads/main"; "" when detached
	Branch   string // "main"
	SHA      SHA    // "" when the branch has no commit yet
	Detached bool
	Unborn   bool
}

// Head reads HEAD without taking any lock.
func (r *Repo) Head(ctx context.Context) (Head, error) {
	var h Head
	out, err := r.run(ctx, nil, true, "symbolic-ref", "-q", "HEAD")
	var ge *GitError
	switch {
	case err == nil:
		h.Ref = strings.TrimSpace(string(out))
		h.Branch = strings.TrimPrefix(h.Ref, "refs/heads/")
	case errors.As(err, &ge) && ge.ExitCode == 1:
		h.Detached = true
	default:
		return Head{}, err
	}
	if h.SHA, err = r.Refs().Resolve(ctx, "HEAD"); err != nil {
		return Head{}, err
	}
	h.Unborn = h.SHA == ""
	return h, nil
}

// InProgress names the operation a person left half done in this work tree
// ("merge", "rebase", "am", "cherry-pick", "revert", "bisect"), or "".
// It looks at the same state files git status does; rebase is checked first
// because a rebase can stop on a merge or a pick of its own.
func (r *Repo) InProgress() string {
	exists := func(name string) bool {
		_, err := os.Lstat(filepath.Join(r.GitDir, name))
		return err == nil
	}
	switch {
	case exists("rebase-merge"):
		return "rebase"
	case exists("rebase-apply/applying"):
		return "am"
	case exists("rebase-apply"):
		return "rebase"
	case exists("MERGE_HEAD"):
		return "merge"
	case exists("CHERRY_PICK_HEAD"):
		return "cherry-pick"
	case exists("REVERT_HEAD"):
		return "revert"
	case exists("BISECT_LOG"):
		return "bisect"
	}
	// A multi-commit cherry-pick or revert that stopped and was then
	// committed by hand leaves only the sequencer's todo list behind.
	if todo, err := os.ReadFile(filepath.Join(r.GitDir, "sequencer", "todo")); err == nil {
		switch cmd, _, _ := strings.Cut(strings.TrimSpace(string(todo)), " "); cmd {
		case "revert":
			return "revert"
		default:
			return "cherry-pick"
		}
	}
	return ""
}
