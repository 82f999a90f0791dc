package recovery

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fsutil"
	"github.com/planx-dev/planx/internal/run/handconfig"
	"github.com/planx-dev/planx/internal/run/runstate"
)

// What a person changed after the run stopped is theirs: an abort, which
// puts the work tree back as it was before the run, keeps it under
// refs/planx/runs/<id>/aborted with the rest and names it (package rewind),
// and leaves their .planx.yaml edit in the work tree, since it is meant for
// the next run (package handconfig).

// personsConfig is .planx.yaml as a person left it after the stop.
type personsConfig struct {
	data []byte
	mode fs.FileMode
	gone bool // they deleted it
}

// configToKeep reads the person's .planx.yaml edit for Abort to put back
// after the rewind; nil when .planx.yaml holds no edit of theirs.
func configToKeep(ctx context.Context, repo *gitops.Repo, st *runstate.State, head gitops.SHA) (*personsConfig, error) {
	edited, err := handconfig.EditedSinceStop(ctx, repo, st, head)
	if err != nil {
		return nil, err
	}
	p := fsutil.Under(repo.Root, gates.ConfigFile)
	if handconfig.Holds(repo.Root, st) {
		edited = true
	}
	if !edited {
		return nil, nil
	}
	fi, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return &personsConfig{gone: true}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", gates.ConfigFile, err)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", gates.ConfigFile, err)
	}
	return &personsConfig{data: data, mode: fi.Mode().Perm()}, nil
}

// putBack writes the person's .planx.yaml into the rewound work tree, an
// uncommitted change again.
func (c *personsConfig) putBack(root string) error {
	p := fsutil.Under(root, gates.ConfigFile)
	if c.gone {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("keep your deletion of %s: %w", gates.ConfigFile, err)
		}
		return nil
	}
	if err := os.WriteFile(p, c.data, c.mode); err != nil {
		return fmt.Errorf("keep your edit of %s: %w", gates.ConfigFile, err)
	}
	return nil
}

// relJoin is the repository-relative, slash-separated path p under root.
