package gates

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/planx-dev/planx/planparse"
)

// DefaultTimeout applies to a gate whose Timeout is zero.
const DefaultTimeout = 10 * time.Minute

// MaxOutput is how many bytes of a gate's output its file under
// .git/planx/runs/ keeps; the tail in the log is kept whatever the size.
const MaxOutput = 8 << 20

// When says at which point of a run a gate runs.
type When string

// Gate schedules. The empty When means WhenEach, so that a gate overriding
// another by name (see Merge) can leave it unset and inherit it.
const (
	WhenEach  When = "each"  // after every task
	WhenFinal When = "final" // once, after the last task
)

// Gate is a named shell command that must exit 0.
type Gate struct {
	Name string
	// Command is run with `bash -c`. "{blast_radius}" and "{{blast_radius}}"
	// in it are replaced by the task's blast radius, else by DefaultRadius,
	// else by nothing.
	Command       string
	Timeout       time.Duration // 0 means DefaultTimeout
	When          When
	DefaultRadius string
	// Fix declares a gate that rewrites files (gofmt -w, a code generator):
	// its changes are committed with the task and listed in the trailers,
	// and the other gates run after it on the result. Any other gate that
	// changes the work tree fails the task.
	Fix bool `json:",omitempty"`
	// Report says how the gate's runner reports test by test, where planx
	// cannot tell from the command; zero: planx infers it.
	Report Report `json:",omitzero"`
}

// Final reports whether the gate runs only once at the end of a run.
func (g Gate) Final() bool { return g.When == WhenFinal }

// Expand returns the command with the blast radius substituted. The radius
// is inserted unquoted because it is a list of words (packages, paths); the
// backticks, quotes and commas of a radius copied from markdown are dropped
// first, since bash would run `./x/...` as a command substitution.
func (g Gate) Expand(blastRadius string) string {
	r := normalizeRadius(blastRadius)
	if r == "" {
		r = normalizeRadius(g.DefaultRadius)
	}
	c := strings.ReplaceAll(g.Command, "{{blast_radius}}", r)
	return strings.ReplaceAll(c, "{blast_radius}", r)
}

func normalizeRadius(s string) string {
	words := strings.FieldsFunc(s, func(r rune) bool {
		return r == ',' || r == ' ' || r == '\t' || r == '\n'
	})
	out := words[:0]
	for _, w := range words {
		if w = strings.Trim(w, "`'\""); w != "" {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

func parseWhen(s string) (When, error) {
	switch w := When(s); w {
	case "", WhenEach, WhenFinal:
		return w, nil
	}
	return "", fmt.Errorf("when is %q, want %q or %q", s, WhenEach, WhenFinal)
}

func parseTimeout(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("timeout %q is not a duration such as 90s or 10m", s)
	}
	if d <= 0 {
		return 0, fmt.Errorf("timeout %q must be positive", s)
	}
	return d, nil
}

// ParseFlag parses the value of a --gate flag, "name=command" or
// "name@timeout=command" (--gate 'test@5m=go test ./...'); without a timeout
// the gate keeps the one of the gate it overrides, else DefaultTimeout.
func ParseFlag(s string) (Gate, error) {
	name, command, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	var timeout time.Duration
	if n, t, has := strings.Cut(name, "@"); has {
		d, err := parseTimeout(strings.TrimSpace(t))
		if err != nil || d == 0 {
			return Gate{}, fmt.Errorf("--gate %q: after '@' comes the gate's timeout, e.g. --gate 'test@5m=go test ./...'", s)
		}
		name, timeout = strings.TrimSpace(n), d
	}
	switch {
	case !ok:
		return Gate{}, fmt.Errorf("--gate %q: want name=command, e.g. --gate 'test=go test ./...'", s)
	case name == "":
		return Gate{}, fmt.Errorf("--gate %q: the gate name before '=' is empty", s)
	case strings.TrimSpace(command) == "":
		return Gate{}, fmt.Errorf("--gate %q: the command after '=' is empty", s)
	}
	return Gate{Name: name, Command: command, Timeout: timeout}, nil
}

// FromPlan converts the gates declared in a plan's front matter.
func FromPlan(decls []planparse.GateDecl) ([]Gate, error) {
	gs := make([]Gate, 0, len(decls))
	var errs []error
	for i, d := range decls {
		name := strings.TrimSpace(d.Name)
		if name == "" {
			errs = append(errs, fmt.Errorf("gate #%d: missing name", i+1))
			continue
		}
		g := Gate{Name: name, Command: d.Command, Fix: d.Fix}
		var err error
		if g.Timeout, err = parseTimeout(d.Timeout); err != nil {
			errs = append(errs, fmt.Errorf("gate %s: %w", name, err))
		}
		if g.When, err = parseWhen(d.When); err != nil {
			errs = append(errs, fmt.Errorf("gate %s: %w", name, err))
		}
		gs = append(gs, g)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return gs, nil
}
