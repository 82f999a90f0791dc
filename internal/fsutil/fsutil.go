// Package fsutil writes files so that a crash never leaves a half-written one:
// the audit log, the run state and the ticked plan are all written this way.
package fsutil

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteAtomic writes data to path through a temporary file in the same
// directory, fsynced and renamed over path: a crash of planx, or of the
// machine, leaves the old content or the new, never a mix or an empty file.
// The directory is not fsynced: after a power loss the rename may be lost,
// which leaves the previous version, as if the crash had come a moment
// earlier; git itself (core.fsync's default) does not fsync its refs or
// index either. perm applies when path does not exist yet; an existing file
// keeps its mode.
func WriteAtomic(path string, data []byte, perm os.FileMode) error {
	return write(path, data, perm, true)
}

// Replace is WriteAtomic without the fsync: a killed planx still leaves the
// old content or the new (the rename is atomic for every process), but
// after a crash of the machine the file may hold the old content, or, on
// file systems that do not order data before a rename, nothing. It is for
// files rewritten at every task whose durability follows git's own
// (gitops.Settings.Durable): the fsync was ~1 ms a write here.
func Replace(path string, data []byte, perm os.FileMode, durable bool) error {
	return write(path, data, perm, durable)
}

func write(path string, data []byte, perm os.FileMode, sync bool) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			_ = tmp.Close()
			_ = os.Remove(name)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if sync {
		if err := tmp.Sync(); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	ok = true
	return nil
}

// Under is the path on disk of rel, a path relative to the directory root
// with forward slashes (as git and planx's records name files).
func Under(root, rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
