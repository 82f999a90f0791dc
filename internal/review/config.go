package review

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
)

// configCache reads .planx.yaml as committed: gates.LoadConfig reads a
// directory, so each distinct commit's file is written to a scratch one.
type configCache struct {
	dir    string
	byAt   map[gitops.SHA]gates.Config
	absent map[gitops.SHA]bool // no .planx.yaml at the commit
}

// missing reports whether rev has no .planx.yaml (once at has read it).
func (cc *configCache) missing(rev gitops.SHA) bool { return cc.absent[rev] }

func (cc *configCache) at(ctx context.Context, repo *gitops.Repo, rev gitops.SHA) (gates.Config, error) {
	if cfg, ok := cc.byAt[rev]; ok {
		return cfg, nil
	}
	src, err := repo.History().ShowFile(ctx, rev, gates.ConfigFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return gates.Config{}, err
	}
	absent := err != nil
	var cfg gates.Config
	if !absent {
		if cc.dir == "" {
			if cc.dir, err = os.MkdirTemp("", "planx-config-"); err != nil {
				return gates.Config{}, err
			}
		}
		d := filepath.Join(cc.dir, string(rev))
		if err := os.MkdirAll(d, 0o700); err != nil {
			return gates.Config{}, err
		}
		if err := os.WriteFile(filepath.Join(d, gates.ConfigFile), src, 0o600); err != nil {
			return gates.Config{}, err
		}
		if cfg, err = gates.LoadConfig(d); err != nil {
			return gates.Config{}, err
		}
	}
	if cc.byAt == nil {
		cc.byAt, cc.absent = map[gitops.SHA]gates.Config{}, map[gitops.SHA]bool{}
	}
	cc.byAt[rev], cc.absent[rev] = cfg, absent
	return cfg, nil
}

func (cc *configCache) close() {
	if cc.dir != "" {
		os.RemoveAll(cc.dir)
	}
}
