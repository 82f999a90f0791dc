package runstart

import (
	"fmt"
	"strings"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/secretscan"
	"github.com/planx-dev/planx/internal/textsafe"
)

// CheckSecrets refuses a run whose rollback commit would snapshot untracked
// files that look like credentials (.env.local, a key, a token in a note):
// a commit is kept by every clone and sent by every push, and the CI
// recipes push. It runs before anything in the repository changes, on the
// changes of the work tree at root; allow is --allow-untracked-secrets.
func CheckSecrets(root string, allow bool, changes []gitops.Change) (execlog.Check, error) {
	name := "no likely secrets among untracked files"
	if allow {
		return execlog.Check{Name: name, OK: true, Detail: "not checked (--allow-untracked-secrets)"}, nil
	}
	var untracked []string
	for _, c := range changes {
		if c.Index == '?' {
			untracked = append(untracked, c.Path)
		}
	}
	found, err := secretscan.Scan(root, untracked)
	if err != nil {
		return execlog.Check{}, fmt.Errorf("look for secrets among untracked files: %w", err)
	}
	if len(found) == 0 {
		return execlog.Check{Name: name, OK: true, Detail: fmt.Sprintf("%d untracked file(s) looked at", len(untracked))}, nil
	}
	var b strings.Builder
	for _, f := range found {
		fmt.Fprintf(&b, "\n  %s: %s", textsafe.Line(f.Path), f.Why)
	}
	return execlog.Check{}, fmt.Errorf("%w: the rollback commit would put %d untracked file(s) that look like secrets into history:%s\n"+
		"add them to .gitignore (or .git/info/exclude), move them out of the repository, or run with --require-clean "+
		"(refuses any uncommitted file); --allow-untracked-secrets commits them anyway",
		gitops.ErrRepoState, len(found), b.String())
}
