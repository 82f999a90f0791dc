package executor

import (
	"os"
	"slices"
	"strings"

	"github.com/planx-dev/planx/planparse"
)

// baseEnvNames are passed to steps, gates and agents as they are: what tools
// need to find themselves, their caches and the user's identity. Everything
// else (tokens, cloud credentials, a hook's GIT_DIR) stays out unless the
// repository's .planx.yaml names it under `env:` or an agent preset needs it.
func baseEnvNames() []string {
	return []string{"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "TZ",
		"TMPDIR", "TMP", "TEMP", "NO_COLOR", "CI", "SSH_AUTH_SOCK", "EDITOR", "VISUAL",
		"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
		// Go's own settings, named one by one: a GO prefix would also pass GOOGLE_* credentials.
		"GOPATH", "GOROOT", "GOFLAGS", "GOCACHE", "GOMODCACHE", "GOPROXY", "GOSUMDB", "GONOSUMDB",
		"GOPRIVATE", "GONOPROXY", "GOINSECURE", "GOTOOLCHAIN", "GOENV", "GOTMPDIR", "GOWORK",
		"GOEXPERIMENT", "GODEBUG", "GOMAXPROCS", "GOGC", "GOTELEMETRY", "GOOS", "GOARCH", "GOAMD64",
		"JAVA_HOME", "VIRTUAL_ENV"}
}

// baseEnvPrefixes are families of tool settings passed through whole.
func baseEnvPrefixes() []string {
	return []string{"LC_", "XDG_", "CGO_", "CARGO_", "RUSTUP_", "NODE_", "NPM_CONFIG_", "PYTHON",
		"GIT_AUTHOR_", "GIT_COMMITTER_", "GIT_CONFIG_"}
}

// env is the minimal environment of steps, gates and agents, plus the
// task's PLANX_* variables and extra names (an agent preset's keys).
func (r *runner) env(t *planparse.Task, extra ...string) []string {
	allowed := append(append(baseEnvNames(), r.cfg.Env...), extra...)
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if slices.Contains(allowed, k) || hasAnyPrefix(k, baseEnvPrefixes()) {
			env = append(env, kv)
		}
	}
	return append(env,
		"PLANX_TASK_ID="+string(t.ID),
		"PLANX_PLAN="+r.planAbs,
		"PLANX_RUN_ID="+r.st.RunID,
		"PLANX_REPO="+r.repo.Root,
	)
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
