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

// MinimalEnv keeps of environ ("K=V" pairs) the base variables and the
// names in extra.
func MinimalEnv(environ []string, extra []string) []string {
	allowed := append(BaseEnvNames(), extra...)
	var env []string
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if slices.Contains(allowed, k) || slices.ContainsFunc(BaseEnvPrefixes(), func(p string) bool { return strings.HasPrefix(k, p) }) {
			env = append(env, kv)
		}
	}
	return env
}
