package secretscan

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestScan(t *testing.T) {
	root := t.TempDir()
	// Test tokens are assembled at run time so this file itself does not
	// trip secret scanners.
	files := map[string]string{
		".env.local":            "API_URL=http://localhost\n",
		".env.example":          "API_KEY=\n",
		"config/prod.env":       "fine\n",
		"deploy/server.pem":     "x",
		"keys/id_ed25519":       "x",
		"keys/id_ed25519.pub":   "ssh-ed25519 AAAA",
		"credentials.json":      "{}",
		"notes/aws.txt":         "key " + "AKIA" + strings.Repeat("Q", 16) + "\n",
		"notes/gh.md":           "token: " + "ghp_" + strings.Repeat("a1", 18) + "\n",
		"notes/key.txt":         "-----BEGIN OPENSSH " + "PRIVATE KEY-----\n" + strings.Repeat("b", 70) + "\n-----END OPENSSH PRIVATE KEY-----\n",
		"src/main.go":           "package main // AKIA is a prefix, not a key\n",
		"src/almost.txt":        "ghp_short\n",
		"big/large.bin":         strings.Repeat("z", MaxFileBytes) + "ghp_" + strings.Repeat("a1", 18),
		"docs/README.md":        "See .env.local for settings.\n",
		"stripe/cfg.yaml":       "key: " + "sk_live_" + strings.Repeat("x", 24) + "\n",
		"anthropic/key.txt":     "sk-ant-api03-" + strings.Repeat("k", 93) + "AA\n",
		"nested/.env":           "X=1\n",
		"nested/.ENV.PROD":      "X=1\n",
		"nested/.environment":   "x\n",
		"nested/my.keystore":    "x",
		"nested/credentialsnot": "x",
		"pkg/credentials.go":    "package pkg // loads credentials\n",
		"docs/credentials.md":   "How to set up credentials.\n",
	}
	var paths []string
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	paths = append(paths, "gone/file.txt") // listed by git, deleted since
	fs, err := Scan(root, paths)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range fs {
		got[f.Path] = f.Why
	}
	want := map[string]string{
		".env.local":            "file name (.env*)",
		"deploy/server.pem":     "file name (*.pem)",
		"keys/id_ed25519":       "file name (id_rsa*)",
		"credentials.json":      "file name (credentials*)",
		"notes/aws.txt":         "content matches aws-access-token",
		"notes/gh.md":           "content matches github-pat",
		"notes/key.txt":         "content matches private-key",
		"stripe/cfg.yaml":       "content matches stripe-access-token",
		"anthropic/key.txt":     "content matches anthropic-api-key",
		"nested/.env":           "file name (.env*)",
		"nested/.ENV.PROD":      "file name (.env*)",
		"nested/my.keystore":    "file name (*.keystore)",
		"nested/credentialsnot": "file name (credentials*)",
	}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s: got %q, want %q", p, got[p], w)
		}
	}
	for p, g := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s flagged (%s), want not flagged", p, g)
		}
	}
}

// The rules compile lazily, on a keyword hit: every one must compile, or a
// secret would surface as a panic in the middle of a run.
func TestRulesCompile(t *testing.T) {
	for _, r := range contentRules() {
		if _, err := regexp.Compile(r.src); err != nil {
			t.Errorf("%s: %v", r.id, err)
		}
		if len(r.keywords) == 0 {
			t.Errorf("%s: no keywords: its regexp would never run", r.id)
		}
	}
}
