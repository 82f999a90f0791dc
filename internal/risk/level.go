package risk

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Level is how much damage a step can do if it runs as written. Levels are
// ordered: LOW < MEDIUM < HIGH < CRITICAL, so the risk of several steps is
// their maximum.
type Level int

// The levels, from harmless to "never without a person saying yes".
const (
	LOW      Level = iota // builds, tests, file writes inside the repository
	MEDIUM                // network, installs, recursive deletes inside the repository, background jobs
	HIGH                  // leaves the repository: pushes, deletes outside, CI and secret files, deploys
	CRITICAL              // can destroy the machine, the remote or the repository's history
)

var levelNames = [...]string{"LOW", "MEDIUM", "HIGH", "CRITICAL"}

func (l Level) String() string {
	if l >= LOW && l <= CRITICAL {
		return levelNames[l]
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// ParseLevel reads a level name as String writes it (any case).
func ParseLevel(s string) (Level, error) {
	for i, n := range levelNames {
		if strings.EqualFold(s, n) {
			return Level(i), nil
		}
	}
	return LOW, fmt.Errorf("unknown risk level %q (want LOW, MEDIUM, HIGH or CRITICAL)", s)
}

// MarshalText makes levels read as their names in JSON.
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// UnmarshalText is ParseLevel for encoding packages.
func (l *Level) UnmarshalText(b []byte) error {
	v, err := ParseLevel(string(b))
	if err == nil {
		*l = v
	}
	return err
}

// NeedsApproval reports whether a person must agree before steps at level l
// run: HIGH and CRITICAL reach outside the repository, where planx's rollback
// commit cannot undo them.
func NeedsApproval(l Level) bool { return l >= HIGH }

// Finding is one reason a script got its level.
type Finding struct {
	Level Level `json:"level"`
	// Line is 1-based within the script given to Classify; Task translates it
	// to the plan's line numbers. 0 means the script as a whole.
	Line   int    `json:"line"`
	Rule   string `json:"rule"`   // stable identifier, documented in docs/risk.md
	Detail string `json:"detail"` // what was found, with the command's text
	// Source is the command the finding is in when it is not a step (see
	// Command.Label): "gate lint (.planx.yaml)", "agent custom (front matter)".
	Source string `json:"source,omitempty"`
}

func (f Finding) String() string {
	if f.Source != "" {
		return fmt.Sprintf("%s, line %d: %s: %s [%s]", f.Source, f.Line, f.Level, f.Detail, f.Rule)
	}
	return fmt.Sprintf("line %d: %s: %s [%s]", f.Line, f.Level, f.Detail, f.Rule)
}

// finish dedupes findings (nested scripts and the walker can report the same
// fact twice) and orders them most severe first, then by line, so the first
// finding is the one worth showing in a one-line summary.
func finish(fs []Finding) (Level, []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(b.Level, a.Level), cmp.Compare(a.Line, b.Line),
			strings.Compare(a.Rule, b.Rule), strings.Compare(a.Detail, b.Detail), strings.Compare(a.Source, b.Source))
	})
	fs = slices.Compact(fs)
	if len(fs) == 0 {
		return LOW, nil
	}
	return fs[0].Level, fs
}
