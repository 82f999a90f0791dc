package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// HelperArg is the first argument that makes planx the sandbox helper
// instead of the command line tool (see Main).
const HelperArg = "__planx-sandbox"

// Mode is what the user asked for (`sandbox:` in .planx.yaml).
type Mode string

const (
	// Auto confines as strongly as the platform allows and says so once
	// when that is weaker than Full.
	Auto Mode = "auto"
	// Required refuses to run a confined process without Full.
	Required Mode = "required"
	// Off runs processes unconfined.
	Off Mode = "off"
)

// ParseMode reads a mode; "" is Auto.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.TrimSpace(s)); m {
	case "":
		return Auto, nil
	case Auto, Required, Off:
		return m, nil
	}
	return "", fmt.Errorf("sandbox mode %q: use auto, required or off", s)
}

// Level is the confinement a process actually ran under, as task commits
// record it (Planx-Sandbox).
type Level string

const (
	// Overlay: the process runs in a task space (internal/space): it may
	// write anything, every write lands in copy-on-write layers, and
	// nothing reaches the user but what planx takes from the work tree's.
	Overlay Level = "overlay"
	// Full: writes only beneath the writable roots, the git directory
	// read-only even inside them, no signals to processes outside.
	Full Level = "landlock+mountns"
	// LandlockOnly: writes only beneath the writable roots, but the git
	// directory inside the work tree stays writable (no mount namespace).
	LandlockOnly Level = "landlock"
	// Seatbelt: macOS sandbox-exec with a profile of the same rules.
	Seatbelt Level = "seatbelt"
	// None: unconfined.
	None Level = "none"
)

// Policy is what a confined process may write; it may read everything.
type Policy struct {
	// Writable are directories (or existing files) the process may write
	// beneath. Paths that do not exist are skipped.
	Writable []string `json:"writable"`
	// ReadOnly are directories kept read-only even where they lie beneath
	// a writable root (the git directory inside the work tree). A writable
	// root beneath one of them (a state directory under .git) is writable
	// again.
	ReadOnly []string `json:"read_only"`
}

// clean makes the paths absolute and free of symbolic links where they
// exist (Landlock and bind mounts act on the file, not on the name).
func (p Policy) clean() Policy {
	fix := func(in []string) []string {
		var out []string
		for _, s := range in {
			if s == "" {
				continue
			}
			if abs, err := filepath.Abs(s); err == nil {
				s = abs
			}
			if r, err := filepath.EvalSymlinks(s); err == nil {
				s = r
			}
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
		return out
	}
	return Policy{Writable: fix(p.Writable), ReadOnly: fix(p.ReadOnly)}
}

// Confinement is how processes are confined on this machine: the level
// the platform allows for the mode asked, and the policy they run under.
type Confinement struct {
	Level  Level
	policy Policy
	exe    string // the helper: planx itself
}

// Weaker says, in a sentence, what is left unconfined compared with Full
// ("" when nothing is).
func (c *Confinement) Weaker() string {
	switch c.Level {
	case Full, Overlay:
		return ""
	case LandlockOnly:
		return "writes are confined to the work tree and the allowed paths, but the git directory inside the work tree stays writable (no mount namespace: unprivileged user namespaces are refused here); writes to it are still detected after the task"
	case Seatbelt:
		return "confined by a Seatbelt profile"
	}
	return "nothing is confined: the process may write anything the user can"
}

// New returns the confinement of policy p under mode m on this machine. It
// probes what the platform allows (a helper process, a few milliseconds).
// Required fails unless Full is possible.
func New(m Mode, p Policy) (*Confinement, error) {
	c := &Confinement{Level: None, policy: p.clean()}
	if m == Off {
		return c, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("sandbox: find planx's own executable: %w", err)
	}
	c.exe = exe
	c.Level = capLevel(probe(exe), os.Getenv(MaxEnv))
	if m == Required && c.Level != Full {
		return nil, fmt.Errorf("sandbox: required, but this machine allows only %q: %s (set `sandbox: auto` in .planx.yaml to run anyway)", c.Level, c.Weaker())
	}
	return c, nil
}

// With returns the same confinement for another policy: a run probes the
// platform once and confines each task to its own paths.
func (c *Confinement) With(p Policy) *Confinement {
	cc := *c
	cc.policy = p.clean()
	return &cc
}

// MaxEnv caps the level planx uses below what the platform allows
// ("landlock+mountns", below a task space; "landlock"; or "none"): for
// testing the fallbacks and the refusal of
// `required` on a machine that allows more. It is read from planx's own
// environment, which a confined child cannot change.
const MaxEnv = "PLANX_SANDBOX_MAX"

// SpacesCapped reports whether MaxEnv caps planx below task spaces (any
// value but "overlay"): the fallbacks' tests run the denial path then.
func SpacesCapped() bool {
	max := os.Getenv(MaxEnv)
	return max != "" && Level(max) != Overlay
}

func capLevel(l Level, max string) Level {
	switch Level(max) {
	case None:
		return None
	case LandlockOnly:
		if l == Full {
			return LandlockOnly
		}
	}
	return l
}

// Wrap makes cmd run under the confinement: cmd's program becomes the
// helper, which confines itself and then execs the original program with
// the original arguments, directory and environment.
func (c *Confinement) Wrap(cmd *exec.Cmd) error {
	if c == nil || c.Level == None {
		return nil
	}
	spec, err := json.Marshal(helperSpec{Policy: c.policy, Mount: c.Level == Full})
	if err != nil {
		return err
	}
	if cmd.Err != nil {
		return nil // the program was not found: Start reports it
	}
	// The program as exec.Command resolved it against planx's PATH, then
	// the original argv: the helper execs exactly what would have run.
	args := append([]string{"planx", HelperArg, string(spec), cmd.Path, "--"}, cmd.Args...)
	cmd.Path, cmd.Args = c.exe, args
	return wrapAttr(cmd, c.Level)
}

// helperSpec is what Wrap tells the helper.
type helperSpec struct {
	Policy Policy `json:"policy"`
	Mount  bool   `json:"mount"` // the helper runs in a mount namespace of its own
}

// within reports whether p is dir or beneath it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
