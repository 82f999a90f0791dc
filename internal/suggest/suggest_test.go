package suggest

import "testing"

func TestKey(t *testing.T) {
	gate := []string{"name", "command", "timeout", "when"}
	top := []string{"agent", "attempts", "env", "executor", "gates", "log_dir"}
	for _, c := range []struct {
		word  string
		known []string
		want  string
	}{
		{"run", gate, "command"},
		{"timout", gate, "timeout"},
		{"Timeout", gate, "timeout"},
		{"comand", gate, "command"},
		{"wen", gate, "when"},
		{"gate", top, "gates"},
		{"gate", []string{"status", "date", "gates"}, "gates"}, // front matter: a plural, not a look-alike
		{"excutor", top, "executor"},
		{"agnet", top, "agent"},
		{"logdir", top, "log_dir"},
		{"colour", gate, ""},
		{"x", top, ""},
		{"run", top, ""}, // the synonym's target is not a key here
	} {
		if got := Key(c.word, c.known); got != c.want {
			t.Errorf("Key(%q) = %q, want %q", c.word, got, c.want)
		}
	}
	if h := Hint("timout", gate); h != "did you mean timeout? known keys: name, command, timeout, when" {
		t.Errorf("Hint = %q", h)
	}
}
