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
	dir  string
	byAt map[gitops.SHA]gates.Config
}

func (cc *configCache) at(ctx context.Context, repo *gitops.Repo, rev gitops.SHA) (gates.Config, error) {
	if cfg, ok := cc.byAt[rev]; ok {
		return cfg, nil
	}
	src, err := repo.History().ShowFile(ctx, rev, gates.ConfigFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return gates.Config{}, err
	}
	var cfg gates.Config
	if err == nil {
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
		cc.byAt = map[gitops.SHA]gates.Config{}
	}
	cc.byAt[rev] = cfg
	return cfg, nil
}

func (cc *configCache) close() {
	if cc.dir != "" {
		os.RemoveAll(cc.dir)
	}
}
