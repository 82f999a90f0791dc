package risk

import (
	"os"
	"testing"
)

func TestWhere(t *testing.T) {
	cases := []struct {
		path, cwd string
		want      place
	}{
		{"build", "", inRepo}, {"./build/x", "", inRepo}, {"a/../b", "", inRepo},
		{".", "", repoRoot}, {"./", "", repoRoot}, {"*", "", repoRoot}, {"./*", "", repoRoot},
		{".git", "", gitDir}, {".git/hooks/pre-commit", "", gitDir}, {"./.git/config", "", gitDir},
		{".g*", "", gitDir}, {".*", "", gitDir}, {".github", "", inRepo},
		{"/tmp/x", "", tmpDir}, {"$TMPDIR/x", "", tmpDir}, {"/tmp", "", broad}, {"/tmp/*", "", outside},
		{"$OUT", "", unknownVar}, {"$OUT/x", "", unknownVar}, {"${OUT:?}/", "", unknownVar}, {"$(…)/x", "", unknownVar},
		{"$OUT/", "", emptyVar}, {"$OUT/*", "", emptyVar},
		{"/usr/local/lib", "", outside}, {"../x", "", outside}, {"~/x", "", outside}, {"$HOME/.cache", "", outside},
		{"/", "", broad}, {"/*", "", broad}, {"/etc", "", broad}, {"~", "", broad}, {"~/", "", broad},
		{"$HOME", "", broad}, {"~bob", "", broad}, {"..", "", broad}, {"../*", "", broad}, {"a/../..", "", broad},
		{"/dev/sda", "", device}, {"/dev/null", "", sink}, {"/dev/fd/2", "", sink},
		{"build", "/", broad}, {"*", "/", broad}, {"build", "/tmp/w", tmpDir}, {"x", "~", outside},
		{"x", "sub", inRepo}, {"..", "sub", repoRoot}, {"x", "..", outside}, {"x", "$D", unknownVar},
	}
	for _, c := range cases {
		if got := where(c.path, c.cwd); got != c.want {
			t.Errorf("where(%q, cwd %q) = %d, want %d", c.path, c.cwd, got, c.want)
		}
	}
}

func TestSensitivePaths(t *testing.T) {
	for _, p := range []string{".github/workflows/ci.yml", "./.gitlab-ci.yml", ".circleci/config.yml", "Jenkinsfile", "sub/.github/workflows/x.yml"} {
		if !ciFile(p) {
			t.Errorf("ciFile(%q) = false", p)
		}
	}
	for _, p := range []string{".github/CODEOWNERS", "ci/build.sh", "workflows.md"} {
		if ciFile(p) {
			t.Errorf("ciFile(%q) = true", p)
		}
	}
	for _, p := range []string{".env", ".env.production", "config/secrets.yml", "id_rsa", "id_ed25519.pub", ".npmrc",
		".pypirc", "~/.aws/credentials", "tls/server.key", "~/.ssh/config", ".netrc"} {
		if !secretFile(p) {
			t.Errorf("secretFile(%q) = false", p)
		}
	}
	for _, p := range []string{"env.go", "README.md", "keys.go", "environment.md"} {
		if secretFile(p) {
			t.Errorf("secretFile(%q) = true", p)
		}
	}
}

func readDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../docs/risk.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
