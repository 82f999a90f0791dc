package gitops

import (
	"os"
	"strings"
)

// hookEnv is the environment of a git command that runs the user's hooks
// (git commit): the user's own locale, not planx's LC_ALL=C, since a hook
// is the user's program and may print, sort or match text in it. planx still
// reads git's own words (a held lock, "nothing to commit", a failed
// signature) in English: LC_MESSAGES=C when the user has no LC_ALL, and
// LANGUAGE=en (which gettext honours over LC_ALL and git has no catalog
// for) when the user's LC_ALL names a language.
func hookEnv() []string {
	var env []string
	userAll := ""
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case k == "LC_ALL":
			userAll = v
			env = append(env, kv)
		case k == "LC_MESSAGES" || k == "LANGUAGE":
			// replaced below
		case !dropEnv(k):
			env = append(env, kv)
		}
	}
	if userAll == "" {
		env = append(env, "LC_MESSAGES=C")
	} else if userAll != "C" && userAll != "POSIX" {
		env = append(env, "LANGUAGE=en")
	}
	return append(env, "GIT_TERMINAL_PROMPT=0")
}
