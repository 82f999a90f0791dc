package gitops

import (
	"context"
	"fmt"
	"strings"
)

// Config is what decides how git behaves in the repository: its config,
// the hooks directory, the committer identity and signing. A run pins the
// settings it must keep (Pin) so that a task cannot change them under it.
type Config struct {
	g         *runner
	hooks     *string // the Repo's hooks directory, as pinned
	root      string
	gitDir    string
	commonDir string
	settings  **Settings // the Repo's, once read
}

// Config returns the repository's configuration.
func (r *Repo) Config() Config {
	return Config{g: &r.runner, hooks: &r.hooks, root: r.Root, gitDir: r.GitDir, commonDir: r.CommonDir, settings: &r.settings}
}

// Pin makes every later git command of the repository run with `-c key=value`,
// whatever the repository's or the user's config says by then: the run
// keeps the hooks path it started with even if a task rewrites
// ~/.gitconfig.
func (c Config) Pin(key, value string) {
	c.g.pinned = append(c.g.pinned, "-c", key+"="+value)
	if key == "core.hooksPath" {
		*c.hooks = value
	}
}

// HooksPath is the absolute directory git runs this repository's hooks
// from, as git said when the repository was opened (or as pinned since).
func (c Config) HooksPath() string { return *c.hooks }

// HooksDir is the absolute directory git runs this repository's hooks
// from: core.hooksPath when set (resolved the way git resolves it), else
// the common git dir's hooks. It may not exist yet. It asks git now: a
// task may have set core.hooksPath since Open (husky install does), whose
// answer Repo keeps for the per-task fast path (commitHooks).
func (c Config) HooksDir(ctx context.Context) (string, error) {
	out, err := c.g.run(ctx, nil, true, "rev-parse", "--path-format=absolute", "--git-path", "hooks")
	if err != nil {
		return "", fmt.Errorf("locate hooks: %w", err)
	}
	return absIn(c.root, strings.TrimSpace(string(out))), nil
}

// Set sets a key in the repository's own config file.
func (c Config) Set(ctx context.Context, key, value string) error {
	_, err := c.g.run(ctx, nil, false, "config", "--local", key, value)
	*c.settings = nil // read again on next use
	return err
}

// CommitterIdent is who git would record as committer now, as
// `git var GIT_COMMITTER_IDENT` prints it: "Name <email> 1767323045 +0000".
// It honours GIT_COMMITTER_NAME/EMAIL/DATE and user.name/user.email, and
// fails as git commit would when no identity is configured.
func (c Config) CommitterIdent(ctx context.Context) (string, error) {
	out, err := c.g.run(ctx, nil, true, "var", "GIT_COMMITTER_IDENT")
	if err != nil {
		return "", fmt.Errorf("committer identity (set user.name and user.email): %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// Var is what git var prints for name (GIT_AUTHOR_IDENT,
// GIT_COMMITTER_IDENT, ...), trimmed: git commit's own rules and
// environment applied. A name git cannot answer is a *GitError.
func (c Config) Var(ctx context.Context, name string) (string, error) {
	out, err := c.g.run(ctx, nil, true, "var", name)
	return strings.TrimSpace(string(out)), err
}

// Identity reads user.name and user.email as git config --get would (the
// last value of each wins), from Settings; "" for unset.
func (c Config) Identity(ctx context.Context) (name, email string) {
	s, err := c.Settings(ctx)
	if err != nil {
		return "", ""
	}
	return s.Name, s.Email
}
