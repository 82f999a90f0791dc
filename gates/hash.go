package gates

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
)

// CommandHash names what a gate runs, for records of gate results by tree:
// the expanded command and the configured environment (the `env:` names of
// .planx.yaml with their values), which can change what the command means.
// The variables planx sets per task or run (PLANX_*) are left out: they do
// not change the verdict on a tree.
func CommandHash(command string, env []string) string {
	kv := slices.Clone(env)
	slices.Sort(kv)
	h := sha256.New()
	h.Write([]byte(command))
	for _, e := range kv {
		h.Write([]byte{0})
		h.Write([]byte(e))
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// ConfiguredEnv picks from environ ("K=V" pairs) the variables names lists,
// in that order, for CommandHash; an unset name counts as "K" alone, so that
// setting it later changes the hash.
func ConfiguredEnv(environ []string, names []string) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		v := n
		for _, kv := range environ {
			if k, _, _ := strings.Cut(kv, "="); k == n {
				v = kv
			}
		}
		out = append(out, v)
	}
	return out
}
