package wave

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
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

// setupDir is where the slot at dir keeps what its worktree_setup made,
// one directory per setup key (keyDir): the key it ran for, and the
// environments while the slot is clean.
func setupDir(dir string) string { return dir + ".setup" }

// keptSetups is how many setups a slot keeps aside: the slots of a plan
// whose task changes a manifest see two sets of manifests from wave to
// wave (and run to run), the base's and the changed ones.
const keptSetups = 2

// keyDir is where the slot at dir keeps the setup it ran for key.
func keyDir(dir, key string) string {
	return filepath.Join(setupDir(dir), key[:min(len(key), 16)])
}

// installedSetup is what a slot's setup installed: the key it ran for and
// the environments, relative to the slot.
type installedSetup struct {
	key  string
	envs []string
}

// Setup runs run (the worktree_setup, installing envs: node_modules/,
// .venv/, relative to the slot) in the slot at dir, unless it already ran
// there for key: then it puts back what it installed and says it did not
// run. The environments are moved aside at the slot's next checkout, or
// when it is given back.
func (s *Pool) Setup(dir, key string, envs []string, run func() error) (ran bool, err error) {
	if s.restore(dir, key, envs) {
		s.installed(dir, key, envs)
		return false, nil
	}
	aside := keyDir(dir, key)
	_ = os.RemoveAll(aside) // what was there is incomplete
	if err := run(); err != nil {
		return true, err
	}
	if err := os.MkdirAll(aside, 0o755); err != nil {
		return true, err
	}
	s.installed(dir, key, envs)
	if err := os.WriteFile(filepath.Join(aside, "key"), []byte(key+"\n"), 0o644); err != nil {
		return true, err
	}
	forgetOlderSetups(dir, aside)
	return true, nil
}

// forgetOlderSetups removes what the slot at dir keeps of setups but the
// one at keep and the newest others, keptSetups in all.
func forgetOlderSetups(dir, keep string) {
	entries, err := os.ReadDir(setupDir(dir))
	if err != nil {
		return
	}
	type kept struct {
		path string
		mod  time.Time
	}
	var others []kept
	for _, e := range entries {
		p := filepath.Join(setupDir(dir), e.Name())
		if p == keep {
			continue
		}
		if fi, err := e.Info(); err == nil {
			others = append(others, kept{p, fi.ModTime()})
		}
	}
	slices.SortFunc(others, func(a, b kept) int { return b.mod.Compare(a.mod) })
	for i, o := range others {
		if i >= keptSetups-1 {
			_ = os.RemoveAll(o.path)
		}
	}
}

// installed notes that the slot at dir holds envs its setup for key
// installed.
func (s *Pool) installed(dir, key string, envs []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.envs == nil {
		s.envs = map[string]installedSetup{}
	}
	s.envs[dir] = installedSetup{key: key, envs: slices.Clone(envs)}
}

// restore moves back into the slot at dir the environments its setup
// installed for key, and reports whether all of them were there.
func (s *Pool) restore(dir, key string, envs []string) bool {
	aside := keyDir(dir, key)
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
	now := time.Now()
	_ = os.Chtimes(aside, now, now) // the newest kept (forgetOlderSetups)
	return true
}

// setAside moves the environments the slot at dir's setup installed out of
// it, before a checkout cleans it. One that cannot be moved forgets the
// setup: it runs again at the slot's next use.
func (s *Pool) setAside(dir string) {
	s.mu.Lock()
	in, ok := s.envs[dir]
	delete(s.envs, dir)
	s.mu.Unlock()
	if !ok {
		return
	}
	aside := keyDir(dir, in.key)
	for _, e := range in.envs {
		e = filepath.FromSlash(strings.TrimSuffix(e, "/"))
		src, dst := filepath.Join(dir, e), filepath.Join(aside, "env", e)
		fi, err := os.Lstat(src)
		if err != nil || !fi.IsDir() || os.MkdirAll(filepath.Dir(dst), 0o755) != nil || os.Rename(src, dst) != nil {
			_ = os.RemoveAll(aside)
			return
		}
	}
}
