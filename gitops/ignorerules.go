package gitops

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// IgnoreSources are where the ignore rules in force now are read from:
// a task that writes one changes what git ignores.
type IgnoreSources struct {
	Files      []string // the .gitignore files git reads, repo-relative
	Exclude    string   // info/exclude, absolute
	Global     string   // core.excludesFile, or where git looks when it is unset ("" for nowhere)
	IgnoreCase bool     // core.ignoreCase
}

// IgnoreSources lists where git reads the ignore rules in force now. A
// .gitignore that is itself ignored is not listed. cleaned says the work
// tree is known to hold no untracked file (a checkout just cleaned): the
// .gitignore files are then the index's, and no directory is walked for
// others.
func (c Config) IgnoreSources(ctx context.Context, cleaned bool) (IgnoreSources, error) {
	src := IgnoreSources{Exclude: filepath.Join(c.commonDir, "info", "exclude")}
	list := []string{"ls-files", "-z", "--cached"}
	if !cleaned {
		list = append(list, "--others", "--exclude-standard")
	}
	out, err := c.g.run(ctx, nil, true, append(list, "--", ":(glob)**/.gitignore")...)
	if err != nil {
		return src, fmt.Errorf("list ignore files: %w", err)
	}
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			src.Files = append(src.Files, p)
		}
	}
	out, err = c.g.run(ctx, nil, true, "config", "-z", "--path", "--get-regexp", `^core\.(excludesfile|ignorecase)$`)
	var ge *GitError
	if err != nil && !(errors.As(err, &ge) && ge.ExitCode == 1) { // 1: none set
		return src, fmt.Errorf("read git config: %w", err)
	}
	for _, rec := range strings.Split(string(out), "\x00") {
		key, value, hasValue := strings.Cut(rec, "\n")
		switch key {
		case "core.excludesfile":
			src.Global = value
		case "core.ignorecase":
			src.IgnoreCase, _ = parseBool(value, hasValue)
		}
	}
	if src.Global == "" {
		src.Global = defaultExcludesFile()
	}
	return src, nil
}

// defaultExcludesFile is where git looks for global ignore rules when
// core.excludesFile is unset.
func defaultExcludesFile() string {
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "git", "ignore")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".config", "git", "ignore")
	}
	return ""
}

// IgnoreScratch is a scratch repository that holds ignore rules and empty
// files and directories named as the paths it is asked about: git answers
// there which paths the rules ignore, whatever the work tree's own rules
// say now. Close removes it.
type IgnoreScratch struct {
	g   runner
	dir string
}

// Close removes the scratch repository.
func (s *IgnoreScratch) Close() { _ = os.RemoveAll(s.dir) }

// NewIgnoreScratch makes a scratch repository in a new temporary directory
// (the caller closes it) holding rules: files (a .gitignore's
// repo-relative path to its text) at their paths, exclude as
// info/exclude, and global, which its git is pointed at as
// core.excludesFile. It runs the git r runs.
func NewIgnoreScratch(ctx context.Context, r *Repo, files map[string]string, exclude, global string, ignoreCase bool) (*IgnoreScratch, error) {
	dir, err := os.MkdirTemp("", "planx-ignore-")
	if err != nil {
		return nil, err
	}
	s := &IgnoreScratch{g: runner{git: r.git, dir: dir, env: baseEnv(), retry: defaultLockRetry()}, dir: dir}
	if _, err := s.g.run(ctx, nil, false, "init", "-q"); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s.g.pinned = []string{"-c", "core.excludesFile=" + filepath.Join(dir, ".git", "planx-global-ignore"),
		"-c", fmt.Sprintf("core.ignoreCase=%t", ignoreCase)}
	put := map[string]string{".git/info/exclude": exclude, ".git/planx-global-ignore": global}
	for p, text := range files {
		if scratchPath(p) && path.Base(p) == ".gitignore" {
			put[p] = text
		}
	}
	for p, text := range put {
		f := filepath.Join(dir, filepath.FromSlash(p))
		if err = os.MkdirAll(filepath.Dir(f), 0o755); err == nil {
			err = os.WriteFile(f, []byte(text), 0o644)
		}
		if err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	return s, nil
}

// Ignored asks git which of paths the rules ignore. The names are made as
// empty files and directories first (a rule ending in '/' matches a
// directory only); what cannot be made is asked about as it is.
func (s *IgnoreScratch) Ignored(ctx context.Context, paths []string) (map[string]bool, error) {
	var stdin []byte
	for _, p := range paths {
		if !scratchPath(p) {
			continue
		}
		f := filepath.Join(s.dir, filepath.FromSlash(strings.TrimSuffix(p, "/")))
		if strings.HasSuffix(p, "/") {
			_ = os.MkdirAll(f, 0o755)
		} else if os.MkdirAll(filepath.Dir(f), 0o755) == nil {
			if fh, err := os.OpenFile(f, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644); err == nil {
				fh.Close()
			}
		}
		stdin = append(append(stdin, p...), 0)
	}
	ok := map[string]bool{}
	if len(stdin) == 0 {
		return ok, nil
	}
	out, err := s.g.run(ctx, stdin, true, "check-ignore", "--no-index", "-z", "--stdin")
	var ge *GitError
	if err != nil && !(errors.As(err, &ge) && ge.ExitCode == 1) { // 1: none ignored
		return nil, fmt.Errorf("ignore rules: %w", err)
	}
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" && slices.Contains(paths, p) {
			ok[p] = true
		}
	}
	return ok, nil
}

// scratchPath reports whether p names a place inside a work tree and
// outside its .git: rules and paths may come from a file an executor
// could have written (the saved watch).
func scratchPath(p string) bool {
	c := strings.TrimSuffix(p, "/")
	return c != "" && filepath.IsLocal(filepath.FromSlash(c)) && !slices.Contains(strings.Split(c, "/"), ".git")
}
