package gates

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/planx-dev/planx/internal/suggest"
	"github.com/planx-dev/planx/planparse"
	"go.yaml.in/yaml/v3"
)

// ConfigFile is the repository config file, at the repository root.
const ConfigFile = ".planx.yaml"

// DefaultLogDir is where execution logs go when Config.LogDir is empty.
const DefaultLogDir = "memory-bank/execute"

// Config is the repository's .planx.yaml. Zero fields mean "not set": the
// caller applies defaults (DefaultLogDir, DefaultTimeout) so that it can
// tell a setting from its absence when flags and plans override it.
type Config struct {
	Gates        []Gate
	StepTimeout  time.Duration
	TaskTimeout  time.Duration
	LogDir       string
	Agent        string
	Executor     string
	RequireClean bool
	// Env names variables passed to steps, gates and agents on top of the
	// minimal environment planx gives them (API keys, proxies, tool settings).
	Env []string
	// Attempts is how many times an agent may try a task (default 1).
	Attempts int
	// Protect and Unprotect add paths to and take paths from the files an
	// agent task may not modify or delete (globs, see docs/protected-paths.md).
	Protect   []string
	Unprotect []string
	// Jobs is how many tasks of a parallel wave run at once (default 1).
	Jobs int
	// Sandbox is how agent tasks (and, opted in, the plan's steps) are
	// confined (see docs/sandbox.md).
	Sandbox Sandbox
	// WorktreeSetup is the command that installs what a fresh checkout
	// needs and git does not hold (npm ci, uv sync): run in the clean
	// checkout an agent task's gates use when the task changed a
	// dependency manifest, instead of linking the work tree's copies.
	WorktreeSetup string
	// SlotIdle is how long a slot of parallel waves and clean checkouts
	// may stay unused before a run's start removes it: 0 is the default
	// (wave.DefaultSlotIdle), below 0 keeps them (slot_idle: 0 or off).
	SlotIdle time.Duration
	// KeepIgnored bounds the bytes of ignored files (the user's own:
	// local.env, data/) a run keeps at its start so that a task that
	// deletes them loses nothing: 0 is the default, -1 keeps none.
	KeepIgnored int64
	// Baseline runs the gates every task runs on the base before the
	// first task, so that a suite already red is not blamed on the plan
	// (planx run --baseline overrides it).
	Baseline bool
	// Budget bounds what agents may spend, per task and per run (the
	// plan's front matter takes its place limit by limit); see
	// docs/agents.md.
	Budget planparse.Budget
	// Review is the review gate: a second agent's verdict on each agent
	// task (review.go).
	Review Review `json:",omitzero"`
	// HiddenTests is a directory outside the repository whose tests the
	// judge adds to its own checkout only (hidden.go); "" for none.
	HiddenTests string `json:",omitempty"`
	// HiddenRef, when set, names the ref of the git repository at
	// HiddenTests whose files are the hidden tests.
	HiddenRef string `json:",omitempty"`
}

// Sandbox is the `sandbox:` setting: a mode alone (`sandbox: required`) or
// a mapping with the paths a confined task may write besides the work tree.
type Sandbox struct {
	Mode     string   // auto (""), required or off
	Writable []string // absolute, or ~/ for HOME
	Steps    bool     // the plan's own steps are confined too
	// NoSpace (`space: false`) confines agents by denying writes outside
	// the work tree (Landlock, a read-only git directory) even where a
	// task space could redirect them.
	NoSpace bool
	// Persist are paths (absolute, or ~/ for HOME) an agent in a task
	// space writes through to the machine: credentials a CLI refreshes,
	// a directory another program watches.
	Persist []string
}

// ConfigError is a problem at a line of the config file.
type ConfigError struct {
	File string
	Line int // 0 when unknown
	Msg  string
	Hint string
}

func (e *ConfigError) Error() string {
	s := e.File
	if e.Line > 0 {
		s += ":" + strconv.Itoa(e.Line)
	}
	s += ": " + e.Msg
	if e.Hint != "" {
		s += " (hint: " + e.Hint + ")"
	}
	return s
}

// LoadConfig reads repoRoot/.planx.yaml. A missing file is not an error:
// planx works without one. Unknown keys are errors, because a misspelt
// setting silently ignored is worse than a refusal to start.
func LoadConfig(repoRoot string) (Config, error) {
	path := filepath.Join(repoRoot, ConfigFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Config{}, nil
	}
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	return parseConfig(path, b)
}

// The keys .planx.yaml knows: an unknown key is an error, with the closest
// known one as a hint. A new setting adds its key here and a case below.
var (
	topKeys     = []string{"agent", "attempts", "baseline", "budget", "env", "executor", "gates", "hidden_tests", "jobs", "log_dir", "protect", "require_clean", "review", "sandbox", "keep_ignored", "step_timeout", "task_timeout", "slot_idle", "unprotect", "worktree_setup"}
	sandboxKeys = []string{"mode", "writable", "steps", "space", "persist"}
	gateKeys    = []string{"name", "command", "timeout", "when", "default_radius", "fix", "report"}
)

// configParser walks the YAML node tree by hand rather than decoding into a
// struct, so that every error, including unknown keys, carries its line.
type configParser struct {
	file string
}

func (p configParser) errf(n *yaml.Node, hint, format string, args ...any) error {
	return &ConfigError{File: p.file, Line: n.Line, Msg: fmt.Sprintf(format, args...), Hint: hint}
}

func parseConfig(file string, b []byte) (Config, error) {
	p := configParser{file: file}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return Config{}, p.syntaxError(err)
	}
	var c Config
	if len(doc.Content) == 0 {
		return c, nil // empty file
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return c, p.errf(root, "write settings as key: value lines", "the file must be a mapping of settings")
	}
	err := p.mapping(root, topKeys, func(k, v *yaml.Node) error {
		var err error
		switch k.Value {
		case "gates":
			c.Gates, err = p.gates(v)
		case "step_timeout":
			c.StepTimeout, err = p.duration(k, v)
		case "task_timeout":
			c.TaskTimeout, err = p.duration(k, v)
		case "log_dir":
			c.LogDir, err = p.str(k, v)
		case "agent":
			c.Agent, err = p.str(k, v)
		case "executor":
			c.Executor, err = p.str(k, v)
		case "require_clean":
			err = p.decode(k, v, &c.RequireClean, "write true or false")
		case "baseline":
			err = p.decode(k, v, &c.Baseline, "write true or false")
		case "env":
			c.Env, err = p.strList(k, v, "write a list of variable names, e.g. [GOFLAGS, HTTPS_PROXY]")
		case "attempts":
			err = p.decode(k, v, &c.Attempts, "write a whole number, e.g. 2")
		case "jobs":
			if err = p.decode(k, v, &c.Jobs, "write a whole number, e.g. 4"); err == nil && c.Jobs < 1 {
				err = p.errf(v, "write a whole number of at least 1, e.g. 4", "jobs must be at least 1")
			}
		case "protect":
			c.Protect, err = p.strList(k, v, "write a list of globs, e.g. ['checks/**', '*.golden']")
		case "unprotect":
			c.Unprotect, err = p.strList(k, v, "write a list of globs, e.g. ['test/fixtures/**']")
		case "sandbox":
			c.Sandbox, err = p.sandbox(k, v)
		case "worktree_setup":
			c.WorktreeSetup, err = p.str(k, v)
		case "slot_idle":
			c.SlotIdle, err = p.idle(k, v)
		case "keep_ignored":
			c.KeepIgnored, err = p.size(k, v)
		case "budget":
			c.Budget, err = p.budget(v)
		case "review":
			c.Review, err = p.review(k, v)
		case "hidden_tests":
			err = p.hiddenTests(&c, k, v)
		default:
			return p.errf(k, suggest.Hint(k.Value, topKeys), "unknown key %q", k.Value)
		}
		return err
	})
	if err == nil {
		err = p.reviewNameTaken(c)
	}
	return c, err
}

// budget reads `budget:`; an error names the line of the value.
func (p configParser) budget(v *yaml.Node) (planparse.Budget, error) {
	var raw any
	if err := v.Decode(&raw); err != nil {
		return planparse.Budget{}, p.errf(v, "write budget: {task: {tokens: 200k, usd: 2.50}, run: {tokens: 2M}}", "budget: %v", err)
	}
	b, err := planparse.ParseBudget(raw)
	if be, ok := err.(*planparse.BudgetError); ok {
		return planparse.Budget{}, p.errf(keyNode(v, be.Path), be.Hint, "%s", be.Msg)
	}
	return b, err
}

// keyNode is the key path leads to from n through mappings, so that an
// error points at its line; as far as the path goes when it ends early.
func keyNode(n *yaml.Node, path []string) *yaml.Node {
	at := n
	for _, k := range path {
		if n.Kind != yaml.MappingNode {
			return at
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				at, next = n.Content[i], n.Content[i+1]
				break
			}
		}
		if next == nil {
			return at
		}
		n = next
	}
	return at
}

// mapping calls f for each key and value, rejecting non-mappings and
// repeated keys (a yaml.Node keeps duplicates the decoder would reject).
func (p configParser) mapping(n *yaml.Node, keys []string, f func(k, v *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return p.errf(n, "known keys: "+strings.Join(keys, ", "), "want a mapping of key: value")
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if line, dup := seen[k.Value]; dup {
			return p.errf(k, "", "key %q repeats the one at line %d", k.Value, line)
		}
		seen[k.Value] = k.Line
		if err := f(k, v); err != nil {
			return err
		}
	}
	return nil
}

func (p configParser) gates(n *yaml.Node) ([]Gate, error) {
	hint := "write each gate as a list item: '- name: test' with 'command: go test {blast_radius}' under it"
	if n.Kind != yaml.SequenceNode {
		return nil, p.errf(n, hint, "gates must be a list")
	}
	var gs []Gate
	names := map[string]int{}
	for _, item := range n.Content {
		var g Gate
		err := p.mapping(item, gateKeys, func(k, v *yaml.Node) error {
			var err error
			switch k.Value {
			case "name":
				g.Name, err = p.str(k, v)
				g.Name = strings.TrimSpace(g.Name)
			case "command":
				g.Command, err = p.str(k, v)
			case "timeout":
				g.Timeout, err = p.duration(k, v)
			case "default_radius":
				g.DefaultRadius, err = p.str(k, v)
			case "fix":
				err = p.decode(k, v, &g.Fix, "write true for a gate that rewrites files (a formatter), else leave it out")
			case "report":
				g.Report, err = p.report(v)
			case "when":
				var s string
				if s, err = p.str(k, v); err == nil {
					if g.When, err = parseWhen(s); err != nil {
						err = p.errf(v, "", "%v", err)
					}
				}
			default:
				return p.errf(k, suggest.Hint(k.Value, gateKeys), "unknown gate key %q", k.Value)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		switch {
		case g.Name == "":
			return nil, p.errf(item, "", "gate without a name")
		case strings.TrimSpace(g.Command) == "":
			return nil, p.errf(item, "", "gate %s has no command", g.Name)
		}
		if line, dup := names[g.Name]; dup {
			return nil, p.errf(item, "", "gate %s is already defined at line %d", g.Name, line)
		}
		names[g.Name] = item.Line
		gs = append(gs, g)
	}
	return gs, nil
}

// report reads a gate's `report:`: a kind alone (`report: go-json`), or
// the JUnit files the command writes (`report: {junit: reports/*.xml}`,
// also `report: junit:reports/*.xml`).
func (p configParser) report(v *yaml.Node) (Report, error) {
	var kind, files string
	switch {
	case v.Kind == yaml.ScalarNode:
		kind = v.Value
		if k, f, ok := strings.Cut(v.Value, ":"); ok && k == ReportJUnit {
			kind, files = k, strings.TrimSpace(f)
		}
		if kind == ReportJUnit && files == "" {
			return Report{}, p.errf(v, reportHint, "report junit needs the files the command writes")
		}
	case v.Kind == yaml.MappingNode && len(v.Content) == 2 && v.Content[1].Kind == yaml.ScalarNode:
		kind, files = v.Content[0].Value, v.Content[1].Value
		if kind != ReportJUnit {
			return Report{}, p.errf(v, reportHint, "report %q takes no files; only junit does", kind)
		}
	default:
		return Report{}, p.errf(v, reportHint, "report: want a kind, or junit with its files")
	}
	r, err := parseReport(kind, files)
	if err != nil {
		return Report{}, p.errf(v, reportHint, "%v", err)
	}
	return r, nil
}

// sandbox reads `sandbox: MODE` or its mapping form.
func (p configParser) sandbox(k, v *yaml.Node) (Sandbox, error) {
	var sb Sandbox
	if v.Kind == yaml.ScalarNode {
		sb.Mode = v.Value
		return sb, p.sandboxMode(v, sb.Mode)
	}
	err := p.mapping(v, sandboxKeys, func(k, v *yaml.Node) error {
		var err error
		switch k.Value {
		case "mode":
			if sb.Mode, err = p.str(k, v); err == nil {
				err = p.sandboxMode(v, sb.Mode)
			}
		case "writable":
			if sb.Writable, err = p.strList(k, v, "write a list of directories, e.g. ['~/go/pkg/mod']"); err == nil {
				for _, w := range sb.Writable {
					if !strings.HasPrefix(w, "/") && !strings.HasPrefix(w, "~/") {
						return p.errf(v, "write an absolute path or one starting with ~/", "sandbox writable path %q is relative", w)
					}
				}
			}
		case "steps":
			err = p.decode(k, v, &sb.Steps, "write true to confine the plan's own steps too")
		case "persist":
			if sb.Persist, err = p.strList(k, v, "write a list of paths, e.g. ['~/.config/gh']"); err == nil {
				for _, w := range sb.Persist {
					if !strings.HasPrefix(w, "/") && !strings.HasPrefix(w, "~/") {
						return p.errf(v, "write an absolute path or one starting with ~/", "sandbox persist path %q is relative", w)
					}
				}
			}
		case "space":
			space := true
			err = p.decode(k, v, &space, "write false to confine agents by denial instead of a task space")
			sb.NoSpace = !space
		default:
			return p.errf(k, suggest.Hint(k.Value, sandboxKeys), "unknown sandbox key %q", k.Value)
		}
		return err
	})
	return sb, err
}

func (p configParser) sandboxMode(v *yaml.Node, mode string) error {
	switch mode {
	case "auto", "required", "off":
		return nil
	}
	return p.errf(v, "write auto, required or off", "sandbox mode %q is not one of auto, required, off", mode)
}

func (p configParser) str(k, v *yaml.Node) (string, error) {
	var s string
	err := p.decode(k, v, &s, "write a plain string")
	return s, err
}

// size reads a size in bytes (`32MB`, `512KB`, `1GB`, `0`) or `off` (-1).
func (p configParser) size(k, v *yaml.Node) (int64, error) {
	hint := "write a size such as 32MB, 512KB or 1GB, or off"
	if v.Kind != yaml.ScalarNode {
		return 0, p.errf(v, hint, "%s must be a size", k.Value)
	}
	s := strings.ToUpper(strings.TrimSpace(v.Value))
	if s == "OFF" {
		return -1, nil
	}
	unit := int64(1)
	for _, u := range []struct {
		suffix string
		n      int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}} {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			s, unit = strings.TrimSpace(rest), u.n
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/unit {
		return 0, p.errf(v, hint, "%s: %q is not a size", k.Value, v.Value)
	}
	if n == 0 {
		return -1, nil
	}
	return n * unit, nil
}

func (p configParser) duration(k, v *yaml.Node) (time.Duration, error) {
	hint := "use a Go duration such as 90s, 5m or 1h30m"
	if v.Kind != yaml.ScalarNode {
		return 0, p.errf(v, hint, "%s must be a duration", k.Value)
	}
	d, err := time.ParseDuration(v.Value)
	if err != nil {
		return 0, p.errf(v, hint, "%s: %q is not a duration", k.Value, v.Value)
	}
	if d <= 0 {
		return 0, p.errf(v, hint, "%s: %q must be positive", k.Value, v.Value)
	}
	return d, nil
}

// idle reads slot_idle: a duration, or 0 or off for never (-1).
func (p configParser) idle(k, v *yaml.Node) (time.Duration, error) {
	if v.Kind == yaml.ScalarNode && (v.Value == "0" || strings.EqualFold(v.Value, "off")) {
		return -1, nil
	}
	return p.duration(k, v)
}

func (p configParser) decode(k, v *yaml.Node, dst any, hint string) error {
	if v.Kind != yaml.ScalarNode {
		return p.errf(v, hint, "%s: want a single value", k.Value)
	}
	if err := v.Decode(dst); err != nil {
		return p.errf(v, hint, "%s: %q is not valid here", k.Value, v.Value)
	}
	return nil
}

// strList reads a sequence of plain strings.
func (p configParser) strList(k, v *yaml.Node, hint string) ([]string, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, p.errf(v, hint, "%s: want a list", k.Value)
	}
	var out []string
	for _, item := range v.Content {
		if item.Kind != yaml.ScalarNode || item.Value == "" {
			return nil, p.errf(item, hint, "%s: want a name", k.Value)
		}
		out = append(out, item.Value)
	}
	return out, nil
}

// syntaxError turns yaml's "yaml: line 3: message" into file:3: message.
func (p configParser) syntaxError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	e := &ConfigError{File: p.file, Msg: msg, Hint: "check the indentation and quote values that contain ': ' or '#'"}
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, m, ok := strings.Cut(rest, ": "); ok {
			if line, err := strconv.Atoi(num); err == nil {
				e.Line, e.Msg = line, m
			}
		}
	}
	return e
}
