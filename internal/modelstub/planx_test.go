package modelstub_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/planx-dev/planx/internal/modelstub"
)

// These tests run planx itself with each real agent CLI as its preset
// (planx run --agent claude, …) on a fresh HOME under planx's default
// sandbox, against the stub: the agent edits the code, runs the tests
// through its own shell tool and commits; planx must commit the task with
// the agent's commit folded into it, and nothing outside the repository
// may change — HOME, the temporary directory, the toolchain's caches are
// byte for byte as before (the agent wrote them in its task space).

var (
	planxOnce sync.Once
	planxBin  string
	planxErr  error
)

// planx builds planx once for the package's tests.
func planx(t *testing.T) string {
	t.Helper()
	planxOnce.Do(func() {
		dir, err := os.MkdirTemp("", "planx-bin-")
		if err != nil {
			planxErr = err
			return
		}
		planxBin = filepath.Join(dir, "planx")
		out, err := exec.Command("go", "build", "-o", planxBin, "github.com/planx-dev/planx/cmd/planx").CombinedOutput()
		if err != nil {
			planxErr = err
			t.Logf("%s", out)
		}
	})
	if planxErr != nil {
		t.Fatalf("build planx: %v", planxErr)
	}
	return planxBin
}

// presetEnv is what a user of each preset sets up to point the CLI at the
// stub: the variables the preset passes through, and configuration files
// in HOME where the CLI takes its endpoint only from there.
var presetEnv = map[string]func(t *testing.T, home, url string) []string{
	"claude": func(t *testing.T, home, url string) []string {
		return []string{"ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_API_KEY=sk-ant-stub",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1"}
	},
	"codex": func(t *testing.T, home, url string) []string {
		writeFile(t, filepath.Join(home, ".codex", "config.toml"), `model = "gpt-5.5"
model_provider = "stub"

[model_providers.stub]
name = "stub"
base_url = "`+url+`/v1"
env_key = "OPENAI_API_KEY"
wire_api = "responses"

[analytics]
enabled = false

[features]
plugins = false
apps = false
remote_plugin = false
`)
		return []string{"OPENAI_API_KEY=sk-stub"}
	},
	"gemini": func(t *testing.T, home, url string) []string {
		writeFile(t, filepath.Join(home, ".gemini", "settings.json"),
			`{"security":{"auth":{"selectedType":"gemini-api-key"}},"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false}}`)
		return []string{"GEMINI_API_KEY=stub-key", "GOOGLE_GEMINI_BASE_URL=" + url}
	},
	"opencode": func(t *testing.T, home, url string) []string {
		writeFile(t, filepath.Join(home, ".config", "opencode", "opencode.json"), string(raw(map[string]any{
			"provider": map[string]any{"stub": map[string]any{
				"npm": "@ai-sdk/openai-compatible", "name": "Stub",
				"options": map[string]any{"baseURL": url + "/v1", "apiKey": "sk-stub"},
				"models": map[string]any{"stub-model": map[string]any{"name": "Stub model", "tool_call": true,
					"limit": map[string]any{"context": 200000, "output": 32000}}},
			}},
			"model": "stub/stub-model", "small_model": "stub/stub-model",
			"autoupdate": false, "share": "disabled",
		})))
		return []string{"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1",
			"OPENCODE_DISABLE_SHARE=1", "OPENCODE_DISABLE_DEFAULT_PLUGINS=1"}
	},
	"qwen": func(t *testing.T, home, url string) []string {
		writeFile(t, filepath.Join(home, ".qwen", "settings.json"),
			`{"memory":{"enableManagedAutoMemory":false},"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false}}`)
		return []string{"OPENAI_BASE_URL=" + url + "/v1", "OPENAI_API_KEY=sk-stub", "OPENAI_MODEL=stub-model"}
	},
}

func TestPlanxRealAgentClaude(t *testing.T)   { runPlanx(t, "claude") }
func TestPlanxRealAgentCodex(t *testing.T)    { runPlanx(t, "codex") }
func TestPlanxRealAgentGemini(t *testing.T)   { runPlanx(t, "gemini") }
func TestPlanxRealAgentQwen(t *testing.T)     { runPlanx(t, "qwen") }
func TestPlanxRealAgentOpencode(t *testing.T) { runPlanx(t, "opencode") }

const plan = `---
topic: real agent
gates:
  - name: test
    command: go test ./...
---
# Calculator

- [ ] T001 Fix Add
  Files: Modify: calc.go
`

// planxRun is one run of planx with the real CLI name as its preset, on a
// fresh HOME, against the stub replaying script.
type planxRun struct {
	out        string
	err        error
	home, repo string
	env        []string
	stub       *modelstub.Server
	before     map[string]string // HOME and TMPDIR before the run
	tmp        string
}

// runPlanxWith sets up the world with planText as plan.md and runs planx
// run --agent name.
func runPlanxWith(t *testing.T, name, planText string, script func(repo string) []modelstub.Turn) *planxRun {
	t.Helper()
	bin := agentBin(t, cases[name].bin)
	if testing.Short() {
		t.Skip("runs a real agent CLI")
	}
	px := planx(t)
	home, repo, tmp, env := newWorld(t)
	writeFile(t, filepath.Join(repo, "plan.md"), planText)
	git(t, repo, env, "add", "-A")
	git(t, repo, env, "commit", "-q", "-m", "plan")

	stub := modelstub.New(script(repo), modelstub.Options{Log: t.Logf})
	t.Cleanup(stub.Close)
	extra := presetEnv[name](t, home, stub.URL)
	// The gates' go command (planx's own, not the agent's) would write its
	// telemetry counters in HOME.
	writeFile(t, filepath.Join(home, ".config", "go", "telemetry", "mode"), "off 2026-01-01\n")
	before := fingerprints(t, home, tmp)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, px, "run", "--agent", name, "plan.md")
	cmd.Dir = repo
	cmd.Env = append(withPath(env, filepath.Dir(bin)), extra...)
	out, err := cmd.CombinedOutput()
	t.Logf("planx:\n%s", tail(string(out), 4000))
	return &planxRun{out: string(out), err: err, home: home, repo: repo, env: env, stub: stub, before: before, tmp: tmp}
}

func runPlanx(t *testing.T, name string) {
	c := cases[name]
	r := runPlanxWith(t, name, plan, c.script)
	home, repo, tmp, env, stub, before := r.home, r.repo, r.tmp, r.env, r.stub, r.before
	if r.err != nil {
		t.Fatalf("planx run --agent %s: %v", name, r.err)
	}

	msg := git(t, repo, env, "log", "-1", "--format=%B")
	for _, want := range []string{"T001: Fix Add", "Planx-Sandbox: overlay", "Folded commit made by the executor", commitMsg,
		"Planx-Cost: " + c.cost} {
		if !strings.Contains(msg, want) {
			t.Errorf("the task commit lacks %q:\n%s", want, msg)
		}
	}
	if src := git(t, repo, env, "show", "HEAD:calc.go"); !strings.Contains(src, "return a + b") {
		t.Errorf("the committed calc.go is not fixed:\n%s", src)
	}
	res, ok := stub.ToolResult(testCallID)
	if !ok || res.IsError || !strings.Contains(res.Output, "ok") || strings.Contains(res.Output, "FAIL") {
		t.Errorf("the agent's go test through its shell tool: %+v (found %v)", res, ok)
	}
	for _, bad := range []string{"ermission", "denied", "Read-only file system", "command not found"} {
		if strings.Contains(res.Output, bad) {
			t.Errorf("the agent's go test result mentions %q: %q", bad, res.Output)
		}
	}
	if res, ok := stub.ToolResult(commitCallID); !ok || res.IsError || !strings.Contains(res.Output, commitMsg) {
		t.Errorf("the agent's own commit: %+v (found %v)", res, ok)
	}
	after := fingerprints(t, home, tmp)
	// planx's own: where it makes task spaces, which must be gone, every
	// one, when the run ends (the mark of a probe that passed stays:
	// space.Prober).
	own := filepath.Join(home, ".cache", "planx")
	spaces := filepath.Join(own, "spaces")
	for p, v := range after {
		if p == own || strings.HasPrefix(p, own+string(filepath.Separator)) {
			mark, _ := filepath.Match(filepath.Join(spaces, "probe-*.ok"), p)
			if p != own && p != spaces && !mark {
				t.Errorf("a task space was left behind: %s (%s)", p, v)
			}
			delete(after, p)
		}
	}
	if p := filepath.Join(home, ".cache"); after[p] != "" && before[p] == "" {
		delete(after, p) // made for planx's own directory
	}
	for p, v := range before {
		if after[p] != v {
			t.Errorf("%s changed outside the repository: %q -> %q", p, v, after[p])
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s appeared outside the repository", p)
		}
	}
}

// withPath puts dir first on env's PATH.
func withPath(env []string, dir string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			kv = "PATH=" + dir + ":" + v
		}
		out = append(out, kv)
	}
	return out
}

// fingerprints are the paths beneath dirs with their kind, mode and
// content: what a run must leave as it was.
func fingerprints(t *testing.T, dirs ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, d := range dirs {
		err := filepath.Walk(d, func(p string, fi os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			v := fi.Mode().String()
			if fi.Mode().IsRegular() {
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				v += " " + string(b)
			}
			out[p] = v
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}
