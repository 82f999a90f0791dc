package wave

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A slot runs worktree_setup (npm ci, uv sync) once for a command and the
// dependency manifests it reads, not at every use: what the command
// installed (the dependency environments: node_modules/, .venv/) is moved
// aside when the slot is cleaned, next to it under the pool's directory,
// with what it ran for (SetupKey), and moved back when the same command
// would run on the same manifests in that slot again. Moved, not copied: a
// rename in the same file system costs nothing, and the environment is
// back at the path it was installed at (a virtual environment holds its
// own absolute path). Aside, the environments are out of the slot, so a
// task or gate that uses the slot for something else never sees them.

// SetupKey is what a worktree_setup run in the checkout dir stands for:
// the command, and the path and content of each dependency manifest
// (files named one of names: package-lock.json, uv.lock...) dir holds.
func SetupKey(dir, command string, names []string) string {
	h := sha256.New()
	h.Write([]byte(command + "\x00"))
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case !d.Type().IsRegular() || !slices.Contains(names, d.Name()):
			return nil // links (the work tree's ignored entries) are not followed
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		sum := sha256.Sum256(b)
		h.Write([]byte(filepath.ToSlash(rel) + "\x00" + hex.EncodeToString(sum[:]) + "\x00"))
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))
}

// setupDir is where the slot at dir keeps what its worktree_setup made:
// the key it ran for, and the environments while the slot is clean.
func setupDir(dir string) string { return dir + ".setup" }

// Setup runs run (the worktree_setup, installing envs: node_modules/,
// .venv/, relative to the slot) in the slot at dir, unless it already ran
// there for key: then it puts back what it installed and says it did not
// run. The environments are moved aside at the slot's next checkout.
func (s *Pool) Setup(dir, key string, envs []string, run func() error) (ran bool, err error) {
	aside := setupDir(dir)
	if s.restore(dir, key, envs) {
		s.installed(dir, envs)
		return false, nil
	}
	// Whatever was aside stands for another command or other manifests.
	_ = os.RemoveAll(aside)
	if err := run(); err != nil {
		return true, err
	}
	if err := os.MkdirAll(aside, 0o755); err != nil {
		return true, err
	}
	s.installed(dir, envs)
	return true, os.WriteFile(filepath.Join(aside, "key"), []byte(key+"\n"), 0o644)
}

// installed notes that the slot at dir holds envs its setup installed.
func (s *Pool) installed(dir string, envs []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.envs == nil {
		s.envs = map[string][]string{}
	}
	s.envs[dir] = slices.Clone(envs)
}

// restore moves back into the slot at dir the environments its setup
// installed for key, and reports whether all of them were there.
func (s *Pool) restore(dir, key string, envs []string) bool {
	aside := setupDir(dir)
	b, err := os.ReadFile(filepath.Join(aside, "key"))
	if err != nil || strings.TrimSpace(string(b)) != key {
		return false
	}
	for _, e := range envs {
		if _, err := os.Lstat(filepath.Join(aside, "env", filepath.FromSlash(strings.TrimSuffix(e, "/")))); err != nil {
			return false
		}
	}
	for _, e := range envs {
		e = filepath.FromSlash(strings.TrimSuffix(e, "/"))
		dst := filepath.Join(dir, e)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return false
		}
		// Something in its place (a link): the environment cannot go
		// back, and the setup runs again.
		if err := os.Rename(filepath.Join(aside, "env", e), dst); err != nil {
			return false
		}
	}
	return true
}

// setAside moves the environments the slot at dir's setup installed out of
// it, before a checkout cleans it. One that cannot be moved forgets the
// setup: it runs again at the slot's next use.
func (s *Pool) setAside(dir string) {
	s.mu.Lock()
	envs := s.envs[dir]
	delete(s.envs, dir)
	s.mu.Unlock()
	aside := setupDir(dir)
	for _, e := range envs {
		e = filepath.FromSlash(strings.TrimSuffix(e, "/"))
		src, dst := filepath.Join(dir, e), filepath.Join(aside, "env", e)
		fi, err := os.Lstat(src)
		if err != nil || !fi.IsDir() || os.MkdirAll(filepath.Dir(dst), 0o755) != nil || os.Rename(src, dst) != nil {
			_ = os.RemoveAll(aside)
			return
		}
	}
}
