package proc

import "testing"

func TestParseStat(t *testing.T) {
	state, pgrp, ok := parseStat([]byte("4242 (we) ird) Z) S 1 4240 4240 0 -1 4194560"))
	if !ok || state != 'S' || pgrp != 4240 {
		t.Errorf("parseStat = %q %d %v, want 'S' 4240 true", state, pgrp, ok)
	}
	for _, bad := range []string{"", "12 (x", "12 (x) S 1", "12 (x) S 1 nope"} {
		if _, _, ok := parseStat([]byte(bad)); ok {
			t.Errorf("parseStat(%q) ok, want failure", bad)
		}
	}
}
