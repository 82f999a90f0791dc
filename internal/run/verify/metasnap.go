package verify

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gitops"
)

// maxMetaFile bounds what a MetaSnapshot copies of one file: config files,
// hooks and info/ files are small; a bigger one (a sparse-checkout list of
// a huge repository) is recorded by size and time only and not restored.
const maxMetaFile = 1 << 20

// MetaSnapshot holds the bytes and modes of the files of the git directory
// that change what git does next (config, hooks/, info/), so that a task
// that wrote there can be undone: a task must never leave a hook or a
// config behind that runs on the user's next git command.
type MetaSnapshot struct {
	files map[string]metaFile // absolute path → content
}

type metaFile struct {
	data []byte
	mode fs.FileMode
	big  bool // larger than maxMetaFile: not kept
}

// SnapshotMeta copies repo's git directory's config, hooks/ and info/ files.
func SnapshotMeta(repo *gitops.Repo) *MetaSnapshot {
	s := &MetaSnapshot{files: map[string]metaFile{}}
	for _, p := range metaFiles(repo) {
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if fi.Size() > maxMetaFile {
			s.files[p] = metaFile{mode: fi.Mode(), big: true}
			continue
		}
		if b, err := os.ReadFile(p); err == nil {
			s.files[p] = metaFile{data: b, mode: fi.Mode()}
		}
	}
	return s
}

// metaFiles lists the files a snapshot of repo covers as they are now.
func metaFiles(repo *gitops.Repo) []string {
	commonDir, gitDir := repo.CommonDir, repo.GitDir
	out := []string{filepath.Join(commonDir, "config")}
	if gitDir != commonDir {
		out = append(out, filepath.Join(gitDir, "config.worktree"))
	}
	for _, dir := range []string{"hooks", "info"} {
		entries, _ := os.ReadDir(filepath.Join(commonDir, dir))
		for _, e := range entries {
			out = append(out, filepath.Join(commonDir, dir, e.Name()))
		}
	}
	return out
}

// RestoreMeta puts the snapshotted files back as they were: changed ones
// rewritten, deleted ones recreated, new ones removed. It returns what it
// restored, as .git/-relative descriptions.
func RestoreMeta(repo *gitops.Repo, s *MetaSnapshot) ([]string, error) {
	commonDir := repo.CommonDir
	var done []string
	var errs []error
	rel := func(p string) string {
		x, _ := filepath.Rel(commonDir, p)
		return ".git/" + filepath.ToSlash(x)
	}
	for _, p := range metaFiles(repo) {
		if _, ok := s.files[p]; ok {
			continue
		}
		fi, err := os.Lstat(p)
		if err != nil || fi.IsDir() {
			continue
		}
		if err := os.Remove(p); err != nil {
			errs = append(errs, err)
			continue
		}
		done = append(done, rel(p)+" (removed)")
	}
	paths := make([]string, 0, len(s.files))
	for p := range s.files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		f := s.files[p]
		if f.big {
			continue
		}
		cur, err := os.ReadFile(p)
		fi, serr := os.Lstat(p)
		if err == nil && serr == nil && bytes.Equal(cur, f.data) && fi.Mode() == f.mode {
			continue
		}
		if serr == nil && !fi.Mode().IsRegular() {
			// A symlink or directory in its place: writing would follow it.
			if err := os.RemoveAll(p); err != nil {
				errs = append(errs, err)
				continue
			}
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			errs = append(errs, err)
			continue
		}
		if err := os.WriteFile(p, f.data, f.mode.Perm()); err != nil {
			errs = append(errs, err)
			continue
		}
		if err := os.Chmod(p, f.mode.Perm()); err != nil {
			errs = append(errs, err)
			continue
		}
		done = append(done, rel(p)+" (restored)")
	}
	if len(errs) > 0 {
		return done, fmt.Errorf("restore the git directory: %w", errors.Join(errs...))
	}
	return done, nil
}

// metaJSON is a MetaSnapshot as saved in a run's state directory.
type metaJSON struct {
	Path string      `json:"path"`
	Data []byte      `json:"data,omitempty"`
	Mode fs.FileMode `json:"mode"`
	Big  bool        `json:"big,omitempty"`
}

// MarshalJSON saves the snapshot, so that a planx that dies while an
// executor runs can still undo the executor's writes when the run resumes.
func (s *MetaSnapshot) MarshalJSON() ([]byte, error) {
	out := make([]metaJSON, 0, len(s.files))
	for p, f := range s.files {
		out = append(out, metaJSON{Path: p, Data: f.data, Mode: f.mode, Big: f.big})
	}
	slices.SortFunc(out, func(a, b metaJSON) int { return strings.Compare(a.Path, b.Path) })
	return json.Marshal(out)
}

// UnmarshalJSON reads a snapshot MarshalJSON saved.
func (s *MetaSnapshot) UnmarshalJSON(b []byte) error {
	var in []metaJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	s.files = make(map[string]metaFile, len(in))
	for _, f := range in {
		s.files[f.Path] = metaFile{data: f.Data, mode: f.Mode, big: f.Big}
	}
	return nil
}
