package verify

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/planx-dev/planx/gitops"
)

// IgnoreRules are the ignore rules in force at one moment, by their text:
// every .gitignore in the work tree git reads, info/exclude and the file
// core.excludesFile names. Kept before a task runs, they tell the ignored
// files the task left that rules older than it ignore (a build's bin/, a
// test run's __pycache__/) from those only a rule the task wrote ignores.
type IgnoreRules struct {
	Files      map[string]string `json:"files,omitempty"`   // a .gitignore's repo-relative path → its text
	Exclude    string            `json:"exclude,omitempty"` // info/exclude
	Global     string            `json:"global,omitempty"`  // core.excludesFile, or $XDG_CONFIG_HOME/git/ignore
	IgnoreCase bool              `json:"ignore_case,omitempty"`
}

// readIgnoreRules reads the rules in force now, from where git reads them
// (gitops.Config.IgnoreSources; cleaned: a checkout just cleaned, whose
// .gitignore files are the index's). A .gitignore that is itself ignored
// is not read (it is rare, and missing it can only make more files look
// newly ignored, never fewer).
func readIgnoreRules(ctx context.Context, repo *gitops.Repo, cleaned bool) (IgnoreRules, error) {
	rules := IgnoreRules{Files: map[string]string{}}
	src, err := repo.Config().IgnoreSources(ctx, cleaned)
	if err != nil {
		return rules, err
	}
	for _, p := range src.Files {
		// A tracked .gitignore deleted from the work tree is no rule.
		if b, err := os.ReadFile(filepath.Join(repo.Root, filepath.FromSlash(p))); err == nil {
			rules.Files[p] = string(b)
		}
	}
	if b, err := os.ReadFile(src.Exclude); err == nil {
		rules.Exclude = string(b)
	}
	rules.IgnoreCase = src.IgnoreCase
	if src.Global != "" {
		if b, err := os.ReadFile(src.Global); err == nil {
			rules.Global = string(b)
		}
	}
	return rules, nil
}

// maxWalk bounds the entries ignoredUnder reads below new directories that
// the rules do not ignore as a whole; past it a directory counts as not
// ignored.
const maxWalk = 20000

// ignoredUnder returns those of paths (repo-relative, a directory ending
// in '/', as IgnoredFiles lists them) that rules ignore: a file the rules
// ignore, a directory they ignore, or one every file below which they
// ignore (git lists a directory whose files are all ignored as one entry).
// git answers, in a scratch repository that holds only the rules and the
// paths' names: the work tree's own rules may have changed since the rules
// were read.
func ignoredUnder(ctx context.Context, repo *gitops.Repo, rules IgnoreRules, paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	s, err := gitops.NewIgnoreScratch(ctx, repo, rules.Files, rules.Exclude, rules.Global, rules.IgnoreCase)
	if err != nil {
		return nil, fmt.Errorf("ignore rules: %w", err)
	}
	defer s.Close()
	ok, err := s.Ignored(ctx, paths)
	if err != nil {
		return nil, err
	}
	budget := maxWalk
	var out []string
	for _, p := range paths {
		if !ok[p] && strings.HasSuffix(p, "/") {
			if ok[p], err = wholly(ctx, s, repo.Root, p, &budget); err != nil {
				return nil, err
			}
		}
		if ok[p] {
			out = append(out, p)
		}
	}
	return out, nil
}

// wholly reports whether the rules s holds ignore every file below the
// directory dir of the work tree at root, reading it a level at a time, at
// most *budget entries in all.
func wholly(ctx context.Context, s *gitops.IgnoreScratch, root, dir string, budget *int) (bool, error) {
	level := []string{dir}
	for len(level) > 0 {
		var next []string
		for _, d := range level {
			entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(d)))
			if err != nil {
				return false, nil
			}
			for _, e := range entries {
				if *budget--; *budget < 0 {
					return false, nil
				}
				p := d + e.Name()
				if e.IsDir() {
					p += "/"
				}
				next = append(next, p)
			}
		}
		ok, err := s.Ignored(ctx, next)
		if err != nil {
			return false, err
		}
		level = level[:0]
		for _, p := range next {
			switch {
			case ok[p]:
			case strings.HasSuffix(p, "/"):
				level = append(level, p)
			default:
				return false, nil
			}
		}
	}
	return true, nil
}
