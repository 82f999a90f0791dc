package execlog

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/planx-dev/planx/internal/fsutil"
)

// WriteFile renders the log to repoRoot/l.Path. The write is atomic
// (fsutil.WriteAtomic), so a crash or Ctrl-C never leaves a half-written
// log to be committed.
func (l *Log) WriteFile(repoRoot string) error { return l.Write(repoRoot, true) }

// Write is WriteFile with the fsync left to durable (fsutil.Replace): a
// run's per-task writes follow git's own durability.
func (l *Log) Write(repoRoot string, durable bool) error {
	if l.Path == "" {
		return errors.New("execution log: no path")
	}
	path := filepath.Join(repoRoot, filepath.FromSlash(l.Path))
	if err := fsutil.Replace(path, l.Render(), 0o644, durable); err != nil {
		return fmt.Errorf("execution log: %w", err)
	}
	return nil
}
