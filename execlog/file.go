package execlog

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// WriteFile renders the log to repoRoot/l.Path. The write is atomic (a
// temporary file in the same directory, synced, then renamed), so a crash or
// Ctrl-C never leaves a half-written log to be committed.
func (l *Log) WriteFile(repoRoot string) error {
	if l.Path == "" {
		return errors.New("execution log: no path")
	}
	path := filepath.Join(repoRoot, filepath.FromSlash(l.Path))
	if err := writeAtomic(path, l.Render()); err != nil {
		return fmt.Errorf("execution log: %w", err)
	}
	return nil
}

// SaveJSON stores the log for a resumed run, atomically as WriteFile does.
func (l *Log) SaveJSON(jsonPath string) error {
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return fmt.Errorf("execution log: %w", err)
	}
	if err := writeAtomic(jsonPath, append(b, '\n')); err != nil {
		return fmt.Errorf("execution log: %w", err)
	}
	return nil
}

// Load reads a log saved by SaveJSON.
func Load(jsonPath string) (*Log, error) {
	b, err := os.ReadFile(jsonPath)
	if err != nil {
		return nil, fmt.Errorf("execution log: %w", err)
	}
	var l Log
	if err := json.Unmarshal(b, &l); err != nil {
		return nil, fmt.Errorf("execution log %s: %w", jsonPath, err)
	}
	return &l, nil
}

func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	// CreateTemp makes the file 0600; the log is an ordinary repository file.
	if err := f.Chmod(0o644); err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	ok = true
	// Sync the directory so the rename itself survives a crash; some file
	// systems refuse to sync directories, which costs only that guarantee.
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}
