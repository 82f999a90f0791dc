package gates

import (
	"strings"
	"testing"
	"time"
)

func TestLoadConfigReview(t *testing.T) {
	dir := writeConfig(t, "agent: claude\nreview:\n  agent: codex\n  model: gpt-5\n  timeout: 3m\n")
	c, err := LoadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Review
	if !r.On() || r.Agent != "codex" || r.Model != "gpt-5" || r.Timeout != 3*time.Minute || r.Line != 2 || !strings.HasSuffix(r.File, ConfigFile) {
		t.Errorf("review: %+v", r)
	}
	if c, err := LoadConfig(writeConfig(t, "agent: claude\n")); err != nil || c.Review.On() {
		t.Errorf("no review: %+v, %v", c.Review, err)
	}
}

func TestLoadConfigReviewErrors(t *testing.T) {
	for text, want := range map[string]string{
		"review: codex\n":                          ".planx.yaml:1: review must be a mapping",
		"review:\n  model: x\n":                    ".planx.yaml:2: review has no agent",
		"review:\n  agent: codex\n  modle: x\n":    `.planx.yaml:3: unknown review key "modle" (hint: did you mean model?`,
		"review:\n  agent: codex\n  timeout: 0s\n": "must be positive",
		"gates:\n  - name: review\n    command: true\nreview:\n  agent: codex\n": ".planx.yaml:4: a gate is named review",
	} {
		_, err := LoadConfig(writeConfig(t, text))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}
