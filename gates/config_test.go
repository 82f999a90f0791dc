package gates

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ConfigFile), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLoadConfig(t *testing.T) {
	dir := writeConfig(t, `# planx settings
step_timeout: 5m
task_timeout: "1h30m"
log_dir: docs/runs
agent: claude -p
executor: agent
require_clean: true
baseline: true
gates:
  - name: test
    command: go test {blast_radius}
    default_radius: ./...
    timeout: 20m
  - name: e2e
    command: make e2e
    when: final
`)
	c, err := LoadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		Gates: []Gate{
			{Name: "test", Command: "go test {blast_radius}", DefaultRadius: "./...", Timeout: 20 * time.Minute},
			{Name: "e2e", Command: "make e2e", When: WhenFinal},
		},
		StepTimeout:  5 * time.Minute,
		TaskTimeout:  90 * time.Minute,
		LogDir:       "docs/runs",
		Agent:        "claude -p",
		Executor:     "agent",
		RequireClean: true,
		Baseline:     true,
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("LoadConfig =\n%+v\nwant\n%+v", c, want)
	}
}

func TestLoadConfigMissingOrEmpty(t *testing.T) {
	c, err := LoadConfig(t.TempDir())
	if err != nil || !reflect.DeepEqual(c, Config{}) {
		t.Errorf("missing file: %+v, %v; want zero Config, nil", c, err)
	}
	c, err = LoadConfig(writeConfig(t, "# nothing yet\n"))
	if err != nil || !reflect.DeepEqual(c, Config{}) {
		t.Errorf("empty file: %+v, %v; want zero Config, nil", c, err)
	}
}

func TestLoadConfigErrors(t *testing.T) {
	cases := []struct {
		name, text string
		line       int
		msg, hint  string
	}{
		{"unknown key", "log_dir: x\nstep_timout: 5m\n", 2, `unknown key "step_timout"`, "did you mean step_timeout?"},
		{"run for command", "gates:\n  - name: t\n    run: x\n", 3, `unknown gate key "run"`, "did you mean command?"},
		{"timout", "gates:\n  - name: t\n    command: x\n    timout: 5m\n", 4, `unknown gate key "timout"`, "did you mean timeout?"},
		{"unknown gate key", "gates:\n  - name: t\n    command: x\n    cmd: y\n", 4, `unknown gate key "cmd"`, "command"},
		{"bad duration", "agent: a\nstep_timeout: 5 minutes\n", 2, `"5 minutes" is not a duration`, "90s"},
		{"bare number", "task_timeout: 300\n", 1, `"300" is not a duration`, "5m"},
		{"negative", "gates:\n  - name: t\n    command: x\n    timeout: -1s\n", 4, "must be positive", ""},
		{"bad when", "gates:\n  - name: t\n    command: x\n    when: later\n", 4, `when is "later"`, ""},
		{"no command", "gates:\n  - name: t\n", 2, "gate t has no command", ""},
		{"no name", "gates:\n  - command: x\n", 2, "gate without a name", ""},
		{"duplicate gate", "gates:\n  - name: t\n    command: x\n  - name: t\n    command: y\n", 4, "already defined at line 2", ""},
		{"duplicate key", "agent: a\nagent: b\n", 2, `key "agent" repeats the one at line 1`, ""},
		{"gates not a list", "gates:\n  test: go test\n", 2, "gates must be a list", "- name: test"},
		{"bad bool", "require_clean: maybe\n", 1, `require_clean: "maybe"`, "true or false"},
		{"baseline not a bool", "agent: a\nbaseline: always\n", 2, `baseline: "always"`, "true or false"},
		{"baseline misspelt", "baseline_gates: true\n", 1, `unknown key "baseline_gates"`, "baseline"},
		{"list for string", "agent:\n  - a\n", 2, "agent: want a single value", ""},
		{"syntax", "agent: a\n  log_dir: b\n", 2, "mapping values are not allowed", "indentation"},
		{"not a mapping", "- a\n- b\n", 1, "must be a mapping", ""},
		{"sandbox mode", "agent: a\nsandbox: strict\n", 2, `sandbox mode "strict"`, "auto, required or off"},
		{"sandbox mapping mode", "sandbox:\n  mode: on\n", 2, `sandbox mode "on"`, "auto, required or off"},
		{"sandbox key", "sandbox:\n  writeable: [/x]\n", 2, `unknown sandbox key "writeable"`, "did you mean writable?"},
		{"sandbox relative", "sandbox:\n  writable: [cache]\n", 2, `"cache" is relative`, "~/"},
	}
	for _, c := range cases {
		dir := writeConfig(t, c.text)
		_, err := LoadConfig(dir)
		var ce *ConfigError
		if !errors.As(err, &ce) {
			t.Errorf("%s: error %v is not a *ConfigError", c.name, err)
			continue
		}
		file := filepath.Join(dir, ConfigFile)
		if ce.File != file || ce.Line != c.line || !strings.Contains(ce.Msg, c.msg) || !strings.Contains(ce.Hint, c.hint) {
			t.Errorf("%s: got %+v, want line %d, message containing %q, hint containing %q", c.name, *ce, c.line, c.msg, c.hint)
		}
		if prefix := file + ":" + strconv.Itoa(c.line) + ": "; !strings.HasPrefix(err.Error(), prefix) {
			t.Errorf("%s: error %q does not start with %q", c.name, err, prefix)
		}
	}
}

func TestConfigErrorWithoutLine(t *testing.T) {
	e := &ConfigError{File: ".planx.yaml", Msg: "broken"}
	if e.Error() != ".planx.yaml: broken" {
		t.Errorf("Error() = %q", e.Error())
	}
}

func TestLoadConfigEnvAndAttempts(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".planx.yaml"), []byte("env: [GOFLAGS, HTTPS_PROXY]\nattempts: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := LoadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Env) != 2 || c.Env[0] != "GOFLAGS" || c.Env[1] != "HTTPS_PROXY" || c.Attempts != 3 {
		t.Fatalf("config = %+v", c)
	}
	if err := os.WriteFile(filepath.Join(dir, ".planx.yaml"), []byte("env: GOFLAGS\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig(dir); err == nil || !strings.Contains(err.Error(), ".planx.yaml:1") {
		t.Fatalf("env as a scalar: %v, want an error at line 1", err)
	}
}

func TestLoadConfigSandbox(t *testing.T) {
	for text, want := range map[string]Sandbox{
		"sandbox: required\n": {Mode: "required"},
		"sandbox:\n  mode: off\n  writable: [~/go/pkg/mod, /opt/cache]\n  steps: true\n": {Mode: "off",
			Writable: []string{"~/go/pkg/mod", "/opt/cache"}, Steps: true},
		"agent: a\n": {},
	} {
		c, err := LoadConfig(writeConfig(t, text))
		if err != nil || !reflect.DeepEqual(c.Sandbox, want) {
			t.Errorf("%q: sandbox %+v, %v; want %+v", text, c.Sandbox, err, want)
		}
	}
}

func TestLoadConfigWorktreeSetup(t *testing.T) {
	c, err := LoadConfig(writeConfig(t, "worktree_setup: npm ci --ignore-scripts\n"))
	if err != nil || c.WorktreeSetup != "npm ci --ignore-scripts" {
		t.Errorf("worktree_setup: %q, %v", c.WorktreeSetup, err)
	}
	if _, err := LoadConfig(writeConfig(t, "worktree_setup: [npm, ci]\n")); err == nil || !strings.Contains(err.Error(), ".planx.yaml:1") {
		t.Errorf("worktree_setup as a list: %v, want an error at line 1", err)
	}
}

func TestLoadConfigSlotIdle(t *testing.T) {
	for text, want := range map[string]time.Duration{"slot_idle: 72h\n": 72 * time.Hour, "slot_idle: 0\n": -1,
		"slot_idle: off\n": -1, "agent: a\n": 0} {
		c, err := LoadConfig(writeConfig(t, text))
		if err != nil || c.SlotIdle != want {
			t.Errorf("%q: %v, %v; want %v", text, c.SlotIdle, err, want)
		}
	}
	for _, text := range []string{"slot_idle: a week\n", "slot_idle: -1h\n", "slot_idle: [1h]\n"} {
		if _, err := LoadConfig(writeConfig(t, text)); err == nil || !strings.Contains(err.Error(), ".planx.yaml:1") {
			t.Errorf("%q: %v, want an error at line 1", text, err)
		}
	}
}

func TestLoadConfigKeepIgnored(t *testing.T) {
	for text, want := range map[string]int64{"keep_ignored: 32MB\n": 32 << 20, "keep_ignored: 512kb\n": 512 << 10,
		"keep_ignored: off\n": -1, "keep_ignored: 0\n": -1, "agent: a\n": 0, "keep_ignored: 100\n": 100} {
		c, err := LoadConfig(writeConfig(t, text))
		if err != nil || c.KeepIgnored != want {
			t.Errorf("%q: %d, %v; want %d", text, c.KeepIgnored, err, want)
		}
	}
	for _, text := range []string{"keep_ignored: lots\n", "keep_ignored: -3MB\n", "keep_ignored: [1]\n"} {
		if _, err := LoadConfig(writeConfig(t, text)); err == nil || !strings.Contains(err.Error(), ".planx.yaml:1") {
			t.Errorf("%q: %v, want an error at line 1", text, err)
		}
	}
}
