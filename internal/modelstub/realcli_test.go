package modelstub_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/planx-dev/planx/internal/modelstub"
)

// These tests run the agent CLIs installed by .ci/agents/install.sh against
// the stub: each gets a fresh HOME, a temporary git repository holding a Go
// module with one failing test, and a script that (a) edits the file that
// fixes it, (b) runs go test through the CLI's shell tool, (c) commits
// through the same tool. They skip when the CLI is not installed.

const (
	commitMsg = "Fix Add"
	// IDs of the script's shell calls, to find their results in the
	// requests the CLI sent back.
	testCallID   = "call_gotest"
	commitCallID = "call_commit"
)

// agentBin returns the installed CLI's path or skips the test.
func agentBin(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", ".ci", "agents", "node_modules", ".bin", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s is not installed (%v); run .ci/agents/install.sh", name, err)
	}
	return p
}

// makeRepo writes a Go module whose one test fails and commits it.
func makeRepo(t *testing.T, dir string, env []string) {
	t.Helper()
	files := map[string]string{
		"go.mod":       "module example.com/calc\n\ngo 1.22\n",
		"calc.go":      "package calc\n\n// Add returns a+b.\nfunc Add(a, b int) int { return a - b }\n",
		"calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(2, 3); got != 5 {\n\t\tt.Fatalf(\"Add(2, 3) = %d, want 5\", got)\n\t}\n}\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "init"}} {
		git(t, dir, env, args...)
	}
}

func git(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// baseEnv is the whole environment of a CLI run: nothing is inherited but
// the directories of go and node, and Go's build cache (so go test does not
// compile the standard library anew in each fresh HOME).
func baseEnv(t *testing.T, home string) []string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not on PATH")
	}
	path := []string{filepath.Dir(goBin)}
	if node, err := exec.LookPath("node"); err == nil {
		path = append(path, filepath.Dir(node))
	}
	path = append(path, "/usr/local/bin", "/usr/bin", "/bin")
	gocache, err := exec.Command(goBin, "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	return []string{
		"PATH=" + strings.Join(path, ":"),
		"HOME=" + home,
		"GOCACHE=" + strings.TrimSpace(string(gocache)),
		"GOTOOLCHAIN=local",
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Planx Test",
		"GIT_AUTHOR_EMAIL=test@planx.invalid",
		"GIT_COMMITTER_NAME=Planx Test",
		"GIT_COMMITTER_EMAIL=test@planx.invalid",
		"GIT_AUTHOR_DATE=2026-01-02T03:04:05Z",
		"GIT_COMMITTER_DATE=2026-01-02T03:04:05Z",
		"LC_ALL=C",
		"NO_COLOR=1",
		"TERM=dumb",
		"TZ=UTC",
	}
}

// cliCase is how one CLI is run and what its tools are called.
type cliCase struct {
	bin string
	// script returns the turns for a repository at repo.
	script func(repo string) []modelstub.Turn
	// prepare writes config under home and returns the CLI's arguments and
	// extra environment for a stub at url.
	prepare func(t *testing.T, home, url string) (args, env []string)
	// usage is a piece of the CLI's stdout that reports the stub's token
	// counts (1000 input, 100 output per turn) added up.
	usage string
	// cost is the Planx-Cost planx records for the script run as the
	// CLI's preset.
	cost string
}

func raw(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

const prompt = "Fix the failing test, run go test, and commit."

var cases = map[string]cliCase{
	// Claude Code: print mode. As root, --dangerously-skip-permissions is
	// refused unless IS_SANDBOX=1. Edit needs a Read of the file first.
	"claude": {
		bin:   "claude",
		usage: `"input_tokens":5000,`,
		cost:  "tokens in=5000 out=500; usd=0.0300",
		script: func(repo string) []modelstub.Turn {
			f := filepath.Join(repo, "calc.go")
			return []modelstub.Turn{
				{Text: "Reading the code.", Calls: []modelstub.ToolCall{{Name: "Read", Args: raw(map[string]any{"file_path": f})}}},
				{Calls: []modelstub.ToolCall{{Name: "Edit", Args: raw(map[string]any{"file_path": f, "old_string": "return a - b", "new_string": "return a + b"})}}},
				{Calls: []modelstub.ToolCall{{ID: testCallID, Name: "Bash", Args: raw(map[string]any{"command": "go test ./...", "description": "Run the tests"})}}},
				{Calls: []modelstub.ToolCall{{ID: commitCallID, Name: "Bash", Args: raw(map[string]any{"command": "git add -A && git commit -m '" + commitMsg + "'", "description": "Commit"})}}},
				{Text: "Fixed Add and committed."},
			}
		},
		prepare: func(t *testing.T, home, url string) ([]string, []string) {
			return []string{"-p", prompt, "--dangerously-skip-permissions", "--output-format", "json"},
				[]string{
					"ANTHROPIC_BASE_URL=" + url,
					"ANTHROPIC_API_KEY=sk-ant-stub",
					"IS_SANDBOX=1",
					"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
					"DISABLE_TELEMETRY=1",
					"DISABLE_AUTOUPDATER=1",
				}
		},
	},
	// Codex: exec mode with a custom Responses provider; gpt-5.5 is a model
	// codex knows, so it declares apply_patch (freeform) and exec_command.
	// login:false keeps /etc/profile from resetting PATH.
	"codex": {
		bin:   "codex",
		usage: `"usage":{"input_tokens":4000,`,
		cost:  "tokens in=4000 out=400",
		script: func(repo string) []modelstub.Turn {
			patch := "*** Begin Patch\n*** Update File: calc.go\n@@\n-func Add(a, b int) int { return a - b }\n+func Add(a, b int) int { return a + b }\n*** End Patch\n"
			return []modelstub.Turn{
				{Text: "Fixing Add.", Calls: []modelstub.ToolCall{{Name: "apply_patch", Kind: "custom", Input: patch}}},
				{Calls: []modelstub.ToolCall{{ID: testCallID, Name: "exec_command", Args: raw(map[string]any{"cmd": "go test ./...", "login": false, "yield_time_ms": 30000})}}},
				{Calls: []modelstub.ToolCall{{ID: commitCallID, Name: "exec_command", Args: raw(map[string]any{"cmd": "git add -A && git commit -m '" + commitMsg + "'", "login": false, "yield_time_ms": 30000})}}},
				{Text: "Fixed Add and committed."},
			}
		},
		prepare: func(t *testing.T, home, url string) ([]string, []string) {
			provider := fmt.Sprintf(`model_providers.stub={name="stub",base_url=%q,env_key="STUB_API_KEY",wire_api="responses"}`, url+"/v1")
			return []string{"exec", "--json", "--dangerously-bypass-approvals-and-sandbox", "--skip-git-repo-check",
					"-c", "model_provider=stub", "-c", provider, "-m", "gpt-5.5",
					"-c", "analytics.enabled=false", "--disable", "plugins", "--disable", "apps", "--disable", "remote_plugin",
					prompt},
				[]string{"STUB_API_KEY=sk-stub"}
		},
	},
	// Gemini CLI: GOOGLE_GEMINI_BASE_URL alone selects the "gateway" auth
	// type, which 0.61.0's non-interactive check rejects ("Invalid auth
	// method selected."), so settings.json selects gemini-api-key.
	"gemini": {
		bin:   "gemini",
		usage: `"input": 4000,`,
		// The model router's request (10 in, 1 out) is counted too.
		cost: "tokens in=4010 out=401",
		script: func(repo string) []modelstub.Turn {
			f := filepath.Join(repo, "calc.go")
			return []modelstub.Turn{
				{Text: "Fixing Add.", Calls: []modelstub.ToolCall{{Name: "replace", Args: raw(map[string]any{"file_path": f, "instruction": "Make Add add.", "old_string": "return a - b", "new_string": "return a + b"})}}},
				{Calls: []modelstub.ToolCall{{ID: testCallID, Name: "run_shell_command", Args: raw(map[string]any{"command": "go test ./...", "description": "Run the tests"})}}},
				{Calls: []modelstub.ToolCall{{ID: commitCallID, Name: "run_shell_command", Args: raw(map[string]any{"command": "git add -A && git commit -m '" + commitMsg + "'", "description": "Commit"})}}},
				{Text: "Fixed Add and committed."},
			}
		},
		prepare: func(t *testing.T, home, url string) ([]string, []string) {
			writeFile(t, filepath.Join(home, ".gemini", "settings.json"),
				`{"security":{"auth":{"selectedType":"gemini-api-key"}},"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false}}`)
			return []string{"-p", prompt, "--yolo", "--output-format", "json"},
				[]string{"GEMINI_API_KEY=stub-key", "GOOGLE_GEMINI_BASE_URL=" + url, "GEMINI_CLI_TRUST_WORKSPACE=true"}
		},
	},
	// opencode: a custom openai-compatible provider given in
	// OPENCODE_CONFIG_CONTENT; permissions allowed in the config. Its edit
	// tool needs a read of the file first.
	"opencode": {
		bin:   "opencode",
		usage: `"tokens":{"total":1100,"input":1000,"output":100,`,
		cost:  "tokens in=5000 out=500",
		script: func(repo string) []modelstub.Turn {
			f := filepath.Join(repo, "calc.go")
			return []modelstub.Turn{
				{Text: "Reading the code.", Calls: []modelstub.ToolCall{{Name: "read", Args: raw(map[string]any{"filePath": f})}}},
				{Calls: []modelstub.ToolCall{{Name: "edit", Args: raw(map[string]any{"filePath": f, "oldString": "return a - b", "newString": "return a + b"})}}},
				{Calls: []modelstub.ToolCall{{ID: testCallID, Name: "bash", Args: raw(map[string]any{"command": "go test ./...", "description": "Run the tests"})}}},
				{Calls: []modelstub.ToolCall{{ID: commitCallID, Name: "bash", Args: raw(map[string]any{"command": "git add -A && git commit -m '" + commitMsg + "'", "description": "Commit"})}}},
				{Text: "Fixed Add and committed."},
			}
		},
		prepare: func(t *testing.T, home, url string) ([]string, []string) {
			cfg := raw(map[string]any{
				"provider": map[string]any{"stub": map[string]any{
					"npm": "@ai-sdk/openai-compatible", "name": "Stub",
					"options": map[string]any{"baseURL": url + "/v1", "apiKey": "sk-stub"},
					"models": map[string]any{"stub-model": map[string]any{"name": "Stub model", "tool_call": true,
						"limit": map[string]any{"context": 200000, "output": 32000}}},
				}},
				"model": "stub/stub-model", "small_model": "stub/stub-model",
				"autoupdate": false, "share": "disabled",
				"permission": map[string]any{"edit": "allow", "bash": "allow", "webfetch": "deny", "external_directory": "allow"},
			})
			return []string{"run", "--pure", "--format", "json", prompt},
				[]string{
					"OPENCODE_CONFIG_CONTENT=" + string(cfg),
					"OPENCODE_DISABLE_MODELS_FETCH=1",
					"OPENCODE_DISABLE_AUTOUPDATE=1",
					"OPENCODE_DISABLE_LSP_DOWNLOAD=1",
					"OPENCODE_DISABLE_SHARE=1",
					"OPENCODE_DISABLE_DEFAULT_PLUGINS=1",
					// opencode installs @opencode-ai/plugin into its config
					// directory in the background on every start; point
					// that at a closed port instead of the npm registry.
					"npm_config_registry=http://127.0.0.1:9/",
				}
		},
	},
	// Qwen Code: OpenAI-compatible env; settings.json turns off the managed
	// memory extraction (an extra request with tools after the last turn)
	// and usage statistics.
	"qwen": {
		bin:   "qwen",
		usage: `"usage":{"input_tokens":5000,"output_tokens":500,`,
		cost:  "tokens in=5000 out=500",
		script: func(repo string) []modelstub.Turn {
			f := filepath.Join(repo, "calc.go")
			return []modelstub.Turn{
				{Text: "Reading the code.", Calls: []modelstub.ToolCall{{Name: "read_file", Args: raw(map[string]any{"file_path": f})}}},
				{Calls: []modelstub.ToolCall{{Name: "edit", Args: raw(map[string]any{"file_path": f, "old_string": "return a - b", "new_string": "return a + b"})}}},
				{Calls: []modelstub.ToolCall{{ID: testCallID, Name: "run_shell_command", Args: raw(map[string]any{"command": "go test ./...", "description": "Run the tests"})}}},
				{Calls: []modelstub.ToolCall{{ID: commitCallID, Name: "run_shell_command", Args: raw(map[string]any{"command": "git add -A && git commit -m '" + commitMsg + "'", "description": "Commit"})}}},
				{Text: "Fixed Add and committed."},
			}
		},
		prepare: func(t *testing.T, home, url string) ([]string, []string) {
			writeFile(t, filepath.Join(home, ".qwen", "settings.json"),
				`{"memory":{"enableManagedAutoMemory":false},"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false}}`)
			return []string{"-p", prompt, "--yolo", "--output-format", "json"},
				[]string{"OPENAI_BASE_URL=" + url + "/v1", "OPENAI_API_KEY=sk-stub", "OPENAI_MODEL=stub-model"}
		},
	},
}

func TestRealCLIClaude(t *testing.T)   { runCLI(t, "claude") }
func TestRealCLICodex(t *testing.T)    { runCLI(t, "codex") }
func TestRealCLIGemini(t *testing.T)   { runCLI(t, "gemini") }
func TestRealCLIOpencode(t *testing.T) { runCLI(t, "opencode") }
func TestRealCLIQwen(t *testing.T)     { runCLI(t, "qwen") }

func runCLI(t *testing.T, name string) {
	c := cases[name]
	bin := agentBin(t, c.bin)
	if testing.Short() {
		t.Skip("runs a real agent CLI")
	}
	home, repo, tmp, env := newWorld(t)

	stub := modelstub.New(c.script(repo), modelstub.Options{Log: t.Logf})
	defer stub.Close()
	args, extra := c.prepare(t, home, stub.URL)

	// The deadline only stops a CLI that hangs; nothing is asserted on time.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = repo
	cmd.Env = append(env, extra...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	t.Logf("stdout:\n%s", tail(stdout.String(), 3000))
	t.Logf("stderr:\n%s", tail(stderr.String(), 3000))
	t.Logf("files under HOME:\n%s", listHome(home))
	t.Logf("files under TMPDIR:\n%s", listHome(tmp))
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		t.Fatalf("%s exited with %d", name, exit.ExitCode())
	case err != nil:
		t.Fatalf("%s: %v", name, err)
	}

	if !strings.Contains(stdout.String(), c.usage) {
		t.Errorf("stdout does not report the token counts (%s)", c.usage)
	}
	if rem := stub.Remaining(); rem != 0 {
		t.Errorf("%d script turns not requested", rem)
	}
	for _, r := range stub.Requests() {
		if r.Exhausted {
			t.Errorf("a request came after the script's last turn: %s %s", r.Method, r.Path)
		}
	}
	src, err := os.ReadFile(filepath.Join(repo, "calc.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "return a + b") {
		t.Errorf("calc.go not fixed:\n%s", src)
	}
	res, ok := stub.ToolResult(testCallID)
	if !ok {
		t.Fatalf("no tool result for the go test call was sent back")
	}
	t.Logf("go test result: %q", res.Output)
	if !strings.Contains(res.Output, "ok") || !strings.Contains(res.Output, "example.com/calc") ||
		strings.Contains(res.Output, "FAIL") || res.IsError {
		t.Errorf("go test result does not show a pass: %+v", res)
	}
	for _, bad := range []string{"ermission", "denied", "not allowed", "command not found"} {
		if strings.Contains(res.Output, bad) {
			t.Errorf("go test result mentions %q: %q", bad, res.Output)
		}
	}
	if res, ok := stub.ToolResult(commitCallID); !ok || res.IsError || !strings.Contains(res.Output, commitMsg) {
		t.Errorf("commit result: %+v (found %v)", res, ok)
	}
	if subj := strings.TrimSpace(git(t, repo, env, "log", "-1", "--format=%s")); subj != commitMsg {
		t.Errorf("last commit is %q, want %q", subj, commitMsg)
	}
	if st := git(t, repo, env, "status", "--porcelain"); st != "" {
		t.Errorf("work tree not clean after the commit:\n%s", st)
	}
}

// newWorld makes a fresh HOME, a temporary directory and the repository
// of makeRepo under one test directory, and the environment of a run there.
func newWorld(t *testing.T) (home, repo, tmp string, env []string) {
	t.Helper()
	root := t.TempDir()
	home, repo, tmp = filepath.Join(root, "home"), filepath.Join(root, "repo"), filepath.Join(root, "tmp")
	for _, d := range []string{home, repo, tmp} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env = append(baseEnv(t, home), "TMPDIR="+tmp)
	makeRepo(t, repo, env)
	return home, repo, tmp, env
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// listHome lists the files a run left under HOME, but for Go's own.
func listHome(home string) string {
	var files []string
	_ = filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(home, p)
		if d.IsDir() {
			switch rel {
			case filepath.Join(".config", "go"), filepath.Join(".cache", "go-build"), "go", ".npm",
				filepath.Join(".config", "opencode", "node_modules"), filepath.Join(".codex", "skills"):
				files = append(files, rel+"/...")
				return filepath.SkipDir
			}
			return nil
		}
		files = append(files, rel)
		return nil
	})
	sort.Strings(files)
	return strings.Join(files, "\n")
}
