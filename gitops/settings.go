package gitops

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Settings are the config values a run reads as it starts, all read by one
// git process: a git process costs 1–2 ms, and a 5-task run at 200 files
// spends ~30 ms per task, so three config reads were a tenth of planx's
// own per-task cost (bench/README.md, "Fixed costs cut").
type Settings struct {
	Name, Email string // user.name, user.email; "" when unset
	Sign        bool   // commit.gpgSign
	// Durable: core.fsync asks git to fsync its refs (reference,
	// committed, added or all). planx then fsyncs the run state and the
	// execution log it rewrites per task too; otherwise they are as
	// durable as git's own commits are (git does not fsync refs or loose
	// objects by default), and a killed planx loses nothing either way.
	Durable bool
	// Sparse: core.sparseCheckout, a work tree holding part of the tree.
	Sparse bool
}

// settingsRE names the keys Settings reads.
const settingsRE = `^(user\.(name|email)|commit\.gpgsign|core\.fsync|core\.sparsecheckout)$`

// Settings reads the run-start settings once per Repo; later calls return
// the same values, which is what a run wants: what it pinned at its start
// holds for the whole run, whatever a task writes into the config.
func (c Config) Settings(ctx context.Context) (Settings, error) {
	if *c.settings != nil {
		return **c.settings, nil
	}
	out, err := c.g.run(ctx, nil, true, "config", "-z", "--get-regexp", settingsRE)
	var ge *GitError
	if err != nil && !(errors.As(err, &ge) && ge.ExitCode == 1) { // 1: none set
		return Settings{}, fmt.Errorf("read git config: %w", err)
	}
	s, err := parseSettings(string(out))
	if err != nil {
		return Settings{}, err
	}
	*c.settings = &s
	return s, nil
}

// Durable is Settings' Durable once read, and true before: the safe
// answer for a command that never read the settings.
func (c Config) Durable() bool {
	if *c.settings == nil {
		return true
	}
	return (*c.settings).Durable
}

// parseSettings reads git config -z --get-regexp output: "key\nvalue\0"
// per entry, "key\0" for a key without "=", the last value winning.
func parseSettings(out string) (Settings, error) {
	var s Settings
	for _, rec := range strings.Split(out, "\x00") {
		if rec == "" {
			continue
		}
		key, value, hasValue := strings.Cut(rec, "\n")
		switch key {
		case "user.name":
			s.Name = value
		case "user.email":
			s.Email = value
		case "commit.gpgsign":
			b, ok := parseBool(value, hasValue)
			if !ok {
				return s, fmt.Errorf("%w: bad boolean config value %q for 'commit.gpgsign'; fix it (git config commit.gpgSign true)", ErrRepoState, value)
			}
			s.Sign = b
		case "core.fsync":
			s.Durable = fsyncsRefs(value)
		case "core.sparsecheckout":
			s.Sparse, _ = parseBool(value, hasValue) // git itself refuses a bad value
		}
	}
	return s, nil
}

// parseBool reads a boolean as git does: a key without "=" is true, an
// empty value false, true/yes/on and false/no/off in any case, and an
// integer (with an optional k, m or g unit) is true unless zero.
func parseBool(v string, hasValue bool) (b, ok bool) {
	if !hasValue {
		return true, true
	}
	switch strings.ToLower(v) {
	case "true", "yes", "on":
		return true, true
	case "false", "no", "off", "":
		return false, true
	}
	num := strings.TrimRight(strings.ToLower(v), "kmg")
	if len(v)-len(num) > 1 {
		return false, false
	}
	n, err := strconv.ParseInt(num, 0, 64)
	if err != nil {
		return false, false
	}
	return n != 0, true
}

// fsyncsRefs reports whether a core.fsync value has git fsync its
// references. git computes (default &^ removed) | added over the whole
// comma-separated list, so order does not matter and a component named
// without "-" is always in; the default set leaves references out (git
// 2.39 config.c, parse_fsync_components; checked with strace).
func fsyncsRefs(v string) bool {
	for _, c := range strings.Split(v, ",") {
		switch strings.TrimSpace(c) {
		case "reference", "committed", "added", "all":
			return true
		}
	}
	return false
}
