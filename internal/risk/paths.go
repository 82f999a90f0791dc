package risk

import (
	"path"
	"strings"
)

// place says where a path argument lands. Steps run at the repository root,
// and planx cannot know where that is on disk when it reads the plan, so
// every absolute path counts as outside the repository.
type place int

const (
	inRepo     place = iota // a path below the repository root
	repoRoot                // the whole repository: ".", "*", "./*"
	gitDir                  // .git or anything under it (or a glob that matches it)
	tmpDir                  // below /tmp, /var/tmp or $TMPDIR: scratch space
	unknownVar              // starts with a variable or command output planx cannot know
	emptyVar                // "$X/" or "$X/*": the filesystem root when $X is empty
	outside                 // absolute, ~/..., ../...
	broad                   // /, a top-level directory, ~, $HOME, .., ../*
	device                  // a device under /dev other than the harmless ones
	sink                    // /dev/null, /dev/stdout, /dev/stderr, /dev/tty, /dev/fd/N
)

// where resolves p against the working directory cwd ("" is the repository
// root; see analyzer.cd) and says where it lands.
func where(p, cwd string) place {
	if cwd != "" && !isAnchored(p) {
		p = cwd + "/" + p
	}
	p = expandKnownVars(p)
	switch {
	case strings.HasPrefix(p, "$"):
		return varPlace(p)
	case strings.HasPrefix(p, "~"):
		rest := strings.TrimPrefix(p, "~")
		if rest != "" && !strings.HasPrefix(rest, "/") { // ~user
			return broad
		}
		if c := path.Clean("/" + rest); c == "/" || c == "/*" {
			return broad
		}
		return outside
	case strings.HasPrefix(p, "/"):
		return absPlace(path.Clean(p))
	}
	c := path.Clean(p)
	switch {
	case c == "." || c == "*":
		return repoRoot
	case c == ".." || c == "../*" || c == "../..":
		return broad
	case strings.HasPrefix(c, "../"):
		return outside
	}
	first, _, _ := strings.Cut(c, "/")
	if first == ".git" || (strings.HasPrefix(first, ".") && strings.ContainsAny(first, "*?[") && globMatches(first, ".git")) {
		return gitDir
	}
	return inRepo
}

// repoPath is p, which where places in the repository, as a clean path
// relative to its root.
func repoPath(p, cwd string) string {
	if cwd != "" && !isAnchored(p) {
		p = cwd + "/" + p
	}
	return path.Clean(strings.TrimPrefix(expandKnownVars(p), "./"))
}

// isAnchored reports whether p does not depend on the working directory.
func isAnchored(p string) bool {
	return strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.HasPrefix(p, "$")
}

// expandKnownVars replaces the variables whose meaning is known.
func expandKnownVars(p string) string {
	for _, r := range []struct{ v, to string }{
		{"$HOME", "~"}, {"${HOME:?}", "~"}, {"$TMPDIR", "/tmp"}, {"${TMPDIR:?}", "/tmp"},
		{"$PWD", "."}, {"${PWD:?}", "."},
	} {
		if p == r.v || strings.HasPrefix(p, r.v+"/") {
			return r.to + strings.TrimPrefix(p, r.v)
		}
	}
	return p
}

// varPlace handles a path starting with an unknown variable. "$X/" and
// "$X/*" are the filesystem root when X is empty (the classic
// `rm -rf "$STEAMROOT/"*`), unless ${X:?} makes an empty X an error.
func varPlace(p string) place {
	guarded := strings.HasPrefix(p, "${") && strings.Contains(p, ":?}")
	_, rest, found := strings.Cut(p, "/")
	if !found || guarded {
		return unknownVar
	}
	if c := path.Clean("/" + rest); c == "/" || c == "/*" {
		return emptyVar
	}
	return unknownVar
}

func absPlace(c string) place {
	switch {
	case c == "/" || c == "/*" || c == "/.*":
		return broad
	case c == "/dev/null" || c == "/dev/stdout" || c == "/dev/stderr" || c == "/dev/tty" ||
		strings.HasPrefix(c, "/dev/fd/") || c == "/dev/zero" || c == "/dev/random" || c == "/dev/urandom":
		return sink
	case strings.HasPrefix(c, "/dev/"):
		return device
	}
	for _, t := range []string{"/tmp/", "/var/tmp/"} {
		if rest, ok := strings.CutPrefix(c, t); ok && rest != "*" {
			return tmpDir
		}
	}
	if strings.Count(c, "/") == 1 { // /usr, /etc, /home, /tmp itself
		return broad
	}
	return outside
}

func globMatches(pattern, name string) bool {
	ok, err := path.Match(pattern, name)
	return ok && err == nil
}

// ciFile reports a continuous-integration definition: editing one changes
// what runs with the repository's CI secrets.
func ciFile(p string) bool {
	c := strings.TrimPrefix(path.Clean(p), "./")
	for _, dir := range []string{".github/workflows/", ".github/actions/", ".circleci/", ".buildkite/", ".gitlab/ci/", ".woodpecker/"} {
		if strings.HasPrefix(c+"/", dir) || strings.Contains(c+"/", "/"+dir) {
			return true
		}
	}
	switch path.Base(c) {
	case ".gitlab-ci.yml", "Jenkinsfile", ".travis.yml", "azure-pipelines.yml",
		"bitbucket-pipelines.yml", ".drone.yml", "appveyor.yml", ".woodpecker.yml", "cloudbuild.yaml":
		return true
	}
	return false
}

// secretFile reports a file that holds or configures credentials.
func secretFile(p string) bool {
	c := path.Clean(p)
	base := path.Base(c)
	lower := strings.ToLower(base)
	switch {
	case strings.HasPrefix(base, ".env"), strings.Contains(lower, "secret"),
		strings.HasPrefix(base, "id_rsa"), strings.HasPrefix(base, "id_ed25519"),
		strings.HasPrefix(base, "id_ecdsa"), strings.HasPrefix(base, "id_dsa"):
		return true
	}
	switch base {
	case ".npmrc", ".pypirc", ".netrc", ".git-credentials", ".dockercfg", "credentials", "kubeconfig", ".htpasswd":
		return true
	}
	switch path.Ext(lower) {
	case ".pem", ".key", ".p12", ".pfx", ".jks", ".keystore":
		return true
	}
	return strings.Contains(c, ".ssh/") || strings.HasSuffix(c, ".docker/config.json") ||
		strings.HasSuffix(c, ".kube/config") || strings.Contains(strings.ToLower(c), "secrets/")
}

// joinCwd is where `cd target` leads from cwd, in where's notation.
func joinCwd(cwd, target string) string {
	if target == "" {
		return "~"
	}
	if !isAnchored(target) && cwd != "" {
		target = cwd + "/" + target
	}
	if strings.HasPrefix(target, "/") {
		return path.Clean(target)
	}
	if isAnchored(target) {
		return target
	}
	if c := path.Clean(target); c != "." {
		return c
	}
	return ""
}
