package agent

import (
	"fmt"
	"strings"
)

// Command is how to start an agent for one prompt.
type Command struct {
	Name string // preset name, or "custom"
	// Argv is a preset's command line. The prompt is never in it: a long
	// task would exceed the kernel's argument limit (E2BIG near 128 KiB for
	// one argument on Linux), so it goes on stdin or in a file.
	Argv []string
	// Shell is a custom command, run with bash -c.
	Shell string
	// Stdin is what the command reads on stdin: the prompt, except for
	// presets that read it from Input.PromptFile.
	Stdin string
	// Env lists extra variable names an agent needs from planx's environment
	// (its API keys and provider settings), on top of the minimal
	// environment steps get.
	Env []string
	// State are the paths, relative to HOME, where the agent keeps its own
	// settings, sessions and credentials: a confined agent may write them
	// (and nothing else of HOME).
	State []string
	// Transcript is the machine-readable output the command line asks
	// for, which planx reads the model use and the tool calls from.
	Transcript Transcript
}

// Input is what an agent gets for one attempt at a task.
type Input struct {
	Prompt string
	// PromptFile holds Prompt; planx keeps it under .git/planx/runs/.
	PromptFile string
	// Files are the task's declared files that exist or will be created
	// (not those it deletes), repo-relative.
	Files []string
	// StateDir is a directory outside the work tree where an agent may keep
	// its history files, so they are not committed with the task.
	StateDir string
}

// preset builds a command line. The flags are those each CLI documents for
// a non-interactive run that may edit files and run the project's tests,
// must never wait for a person, and must not commit by itself; docs/agents.md
// lists each with the version it was checked against.
type preset struct {
	argv  func(in Input) []string
	stdin bool // the prompt goes to stdin (else the command line names PromptFile)
	env   []string
	state []string // relative to HOME; see Command.State
	// transcript is the JSON output argv asks for (see Command.Transcript).
	transcript Transcript
}

// awsEnv are the AWS variables models on Bedrock need.
func awsEnv() []string {
	return []string{"AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
		"AWS_SESSION_TOKEN", "AWS_BEARER_TOKEN_BEDROCK", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE"}
}

// googleEnv are the Google Cloud variables models on Vertex AI need.
func googleEnv() []string {
	return []string{"GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION", "CLOUDSDK_CONFIG"}
}

func join(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

func presets() map[string]preset {
	m := vendorPresets()
	for name, p := range openPresets() {
		m[name] = p
	}
	return m
}

// vendorPresets are the CLIs of the model vendors and aider.
func vendorPresets() map[string]preset {
	return map[string]preset{
		// claude -p reads the prompt from stdin. acceptEdits approves file
		// edits only; in print mode anything else needing approval is
		// denied, so Bash (the tests the task asks for) is allowed by name.
		// stream-json (which print mode gives only with --verbose) is the
		// transcript planx reads the cost and the tool results from.
		"claude": {
			argv: func(Input) []string {
				return []string{"claude", "-p", "--permission-mode", "acceptEdits", "--allowedTools", "Bash,Read,Edit,Write,Glob,Grep",
					"--output-format", "stream-json", "--verbose"}
			},
			stdin: true, transcript: ClaudeStream,
			env: join([]string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_BASE_URL",
				"ANTHROPIC_MODEL", "ANTHROPIC_SMALL_FAST_MODEL", "CLAUDE_CONFIG_DIR", "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX",
				"ANTHROPIC_VERTEX_PROJECT_ID", "CLOUD_ML_REGION", "ANTHROPIC_BEDROCK_BASE_URL", "ANTHROPIC_VERTEX_BASE_URL",
				"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "DISABLE_TELEMETRY", "DISABLE_AUTOUPDATER", "IS_SANDBOX"}, awsEnv(), googleEnv()),
			state: []string{".claude", ".claude.json", ".claude.json.backup", ".config/claude", ".cache/claude"},
		},
		// codex exec - reads the prompt from stdin, and exec never asks.
		// Its own sandbox is off (danger-full-access): planx's confines it,
		// and codex's keeps .git read-only, so its own commit would fail;
		// its endpoint and model come from ~/.codex/config.toml. --json
		// writes its events as JSON lines, the transcript planx reads.
		"codex": {
			argv: func(Input) []string {
				return []string{"codex", "exec", "--json", "--sandbox", "danger-full-access", "--skip-git-repo-check", "-"}
			},
			stdin: true, transcript: CodexJSON,
			env:   []string{"CODEX_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID", "CODEX_HOME", "AZURE_OPENAI_API_KEY"},
			state: []string{".codex"},
		},
		// aider edits only the files in its chat: the declared files are
		// given. It would commit (--no-auto-commits), add .aider* to
		// .gitignore (--no-gitignore) and keep history files in the
		// repository (moved to StateDir); its repository map cache cannot be
		// moved out of the repository, so the map is off (--map-tokens 0).
		"aider": {
			argv: func(in Input) []string {
				a := []string{"aider", "--yes-always", "--no-auto-commits", "--no-dirty-commits", "--no-gitignore",
					"--no-stream", "--no-pretty", "--no-check-update", "--no-show-release-notes", "--map-tokens", "0",
					"--chat-history-file", in.StateDir + "/aider.chat.history.md",
					"--input-history-file", in.StateDir + "/aider.input.history",
					"--message-file", in.PromptFile}
				if len(in.Files) > 0 {
					a = append(append(a, "--"), in.Files...)
				}
				return a
			},
			// Its "Tokens: … sent, … received. Cost: …" lines are the
			// cost planx reads.
			transcript: AiderText,
			env: join([]string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "DEEPSEEK_API_KEY", "OPENROUTER_API_KEY",
				"OPENAI_API_BASE", "AIDER_MODEL", "AIDER_WEAK_MODEL", "AIDER_EDITOR_MODEL"}, awsEnv(), googleEnv()),
			state: []string{".aider", ".cache/aider"},
		},
	}
}

// openPresets are the CLIs that talk to Gemini and OpenAI-compatible
// endpoints.
func openPresets() map[string]preset {
	return map[string]preset{
		// gemini -p appends its argument to the prompt read from stdin and
		// runs headless; yolo approves its tool calls, and --skip-trust
		// trusts the folder for this session (an untrusted folder falls back
		// to asking, which headless mode cannot). stream-json is the
		// transcript planx reads.
		"gemini": {
			argv: func(Input) []string {
				return []string{"gemini", "--approval-mode", "yolo", "--skip-trust", "--output-format", "stream-json",
					"-p", "Do the task described above."}
			},
			stdin: true, transcript: GeminiStream,
			env: join([]string{"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_GCA",
				"GEMINI_MODEL", "GEMINI_CLI_HOME", "GOOGLE_GEMINI_BASE_URL", "GEMINI_CLI_TRUST_WORKSPACE"}, googleEnv()),
			state: []string{".gemini"},
		},
		// qwen (Qwen Code, a Gemini CLI fork) -p appends its argument to the
		// prompt read from stdin; yolo approves its tool calls. It talks to
		// any OpenAI-compatible endpoint. Its stream-json has claude's shape.
		"qwen": {
			argv: func(Input) []string {
				return []string{"qwen", "--yolo", "--output-format", "stream-json", "-p", "Do the task described above."}
			},
			stdin: true, transcript: ClaudeStream,
			env:   []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL", "DASHSCOPE_API_KEY", "QWEN_MODEL"},
			state: []string{".qwen"},
		},
		// opencode run reads piped stdin into the message; --auto approves
		// permission requests that would otherwise ask (headless, an ask
		// waits forever or is rejected). --format json writes its events as
		// JSON lines, the transcript planx reads.
		"opencode": {
			argv: func(Input) []string {
				return []string{"opencode", "run", "--auto", "--format", "json", "Do the task described in the input."}
			},
			stdin: true, transcript: OpencodeJSON,
			env: join([]string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "OPENROUTER_API_KEY", "GROQ_API_KEY",
				"OPENCODE_CONFIG", "OPENCODE_CONFIG_DIR", "OPENCODE_CONFIG_CONTENT", "OPENCODE_DISABLE_MODELS_FETCH",
				"OPENCODE_DISABLE_AUTOUPDATE", "OPENCODE_DISABLE_LSP_DOWNLOAD", "OPENCODE_DISABLE_SHARE",
				"OPENCODE_DISABLE_DEFAULT_PLUGINS"}, awsEnv(), googleEnv()),
			state: []string{".local/share/opencode", ".local/state/opencode", ".config/opencode", ".cache/opencode"},
		},
	}
}

// Presets lists the preset names.
func Presets() []string { return []string{"claude", "codex", "aider", "gemini", "opencode", "qwen"} }

// Resolve turns an agent setting (a preset name or a shell command) and one
// attempt's input into the command to run. A custom command gets the prompt
// on stdin (and its path in PLANX_PROMPT_FILE, set by the executor).
func Resolve(spec string, in Input) (Command, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return Command{}, fmt.Errorf("no agent configured: set --agent, `agent:` in the plan's front matter or in .planx.yaml (presets: %s, or any command reading the prompt on stdin)", strings.Join(Presets(), ", "))
	}
	if p, ok := presets()[spec]; ok {
		c := Command{Name: spec, Argv: p.argv(in), Env: p.env, State: p.state, Transcript: p.transcript}
		if p.stdin {
			c.Stdin = in.Prompt
		}
		return c, nil
	}
	return Command{Name: "custom", Shell: spec, Stdin: in.Prompt}, nil
}

// Tool is the program a preset runs ("" for a custom command): planx checks
// it is on PATH before it changes anything.
func Tool(spec string) string {
	if _, ok := presets()[strings.TrimSpace(spec)]; ok {
		return strings.TrimSpace(spec)
	}
	return ""
}

// Describe says how an agent setting runs, for a review: the preset's name
// and command line (the prompt goes to stdin or a file, shown as
// $PLANX_PROMPT_FILE), or "custom" and the command; and the variables passed
// through to it.
func Describe(spec string) (name, line string, env []string) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return "", "", nil
	}
	c, err := Resolve(spec, Input{PromptFile: "$PLANX_PROMPT_FILE", StateDir: "$PLANX_STATE_DIR"})
	if err != nil {
		return "", "", nil
	}
	if c.Shell != "" {
		return c.Name, c.Shell, c.Env
	}
	q := make([]string, len(c.Argv))
	for i, a := range c.Argv {
		q[i] = shellQuote(a)
	}
	return c.Name, strings.Join(q, " "), c.Env
}

// shellQuote quotes a word for display as shell, leaving plain words and
// $VARIABLE references as they are.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./,=+:$") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
