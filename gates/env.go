package gates

import (
	"slices"
	"strings"
)

// BaseEnvNames are passed to steps, gates and agents as they are: what tools
// need to find themselves, their caches and the user's identity. Everything
// else (tokens, cloud credentials, a hook's GIT_DIR) stays out unless the
// repository's .planx.yaml names it under `env:` or an agent preset needs it.
func BaseEnvNames() []string {
	return []string{"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "TZ",
		"TMPDIR", "TMP", "TEMP", "NO_COLOR", "CI", "SSH_AUTH_SOCK", "EDITOR", "VISUAL",
		"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
		// Go's own settings, named one by one: a GO prefix would also pass GOOGLE_* credentials.
		"GOPATH", "GOROOT", "GOFLAGS", "GOCACHE", "GOMODCACHE", "GOPROXY", "GOSUMDB", "GONOSUMDB",
		"GOPRIVATE", "GONOPROXY", "GOINSECURE", "GOTOOLCHAIN", "GOENV", "GOTMPDIR", "GOWORK",
		"GOEXPERIMENT", "GODEBUG", "GOMAXPROCS", "GOGC", "GOTELEMETRY", "GOOS", "GOARCH", "GOAMD64",
		"JAVA_HOME", "VIRTUAL_ENV"}
}

// BaseEnvPrefixes are families of tool settings passed through whole.
func BaseEnvPrefixes() []string {
	return []string{"LC_", "XDG_", "CGO_", "CARGO_", "RUSTUP_", "NODE_", "NPM_CONFIG_", "PYTHON",
		"GIT_AUTHOR_", "GIT_COMMITTER_", "GIT_CONFIG_"}
}

// MinimalEnv is the environment of a gate: of environ ("K=V" pairs), the
// base variables and the names in extra (the configuration's `env:`), and
// never one of planx's own (PLANX_*, see WithoutPlanx).
func MinimalEnv(environ []string, extra []string) []string {
	allowed := append(BaseEnvNames(), extra...)
	env := []string{}
	for _, kv := range WithoutPlanx(environ) {
		k, _, _ := strings.Cut(kv, "=")
		if slices.Contains(allowed, k) || slices.ContainsFunc(BaseEnvPrefixes(), func(p string) bool { return strings.HasPrefix(k, p) }) {
			env = append(env, kv)
		}
	}
	return env
}

// PlanxEnvPrefix starts the names of the variables planx sets for steps and
// agents (PLANX_TASK_ID, PLANX_RUN_ID, PLANX_PROMPT_FILE, ...).
const PlanxEnvPrefix = "PLANX_"

// WithoutPlanx returns environ without planx's variables. A gate judges
// the work: a variable only planx sets is what code under test could key on
// to tell the judge from any other run of the same command (and pass it
// alone), so no gate ever sees one, whoever built its environment.
func WithoutPlanx(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		if !strings.HasPrefix(kv, PlanxEnvPrefix) {
			out = append(out, kv)
		}
	}
	return out
}
