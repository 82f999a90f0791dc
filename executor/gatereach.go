package executor

import (
	"context"
	"path"
	"slices"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/judge"
)

// What a gate runs is more than the files its command names: the shell
// scripts it reaches (judge.ScriptReader) are protected too, read as the
// run's base commit holds them, never from the work tree an executor may
// have changed.

// gateReach maps each repository file a gate runs beyond the files its
// command names (gateScripts) to why it is protected.
type gateReach map[string]string

// reach returns the run's gateReach, read once (a git cat-file per script
// followed; none when no gate names a script, a makefile or npm).
func (r *runner) reach(ctx context.Context) gateReach {
	if r.reached != nil {
		return r.reached
	}
	r.reached = gateReach{}
	base := r.st.Base
	if base == "" {
		base = r.expect
	}
	if base == "" || r.repo == nil {
		return r.reached
	}
	hist := r.repo.History()
	rd := judge.NewScriptReader(func(p string) ([]byte, bool) {
		b, err := hist.ShowFile(ctx, base, p)
		if err != nil {
			return nil, false
		}
		return b, true
	})
	for _, g := range r.gates {
		seeds := gateScripts([]gates.Gate{g})
		for _, w := range commandWords(g.Command) {
			switch path.Base(w) {
			case "npm", "yarn", "pnpm", "bun":
				// pseudo-paths: follow reads package.json's test scripts
				seeds = append(seeds, "package.json#pretest", "package.json#test", "package.json#posttest")
			}
		}
		for _, s := range seeds {
			rd.Follow(s, func(p, via string) {
				if _, ok := r.reached[p]; !ok {
					r.reached[p] = "run by gate " + g.Name + " through " + via
				}
			})
		}
	}
	return r.reached
}

// paths lists the files, sorted.
func (g gateReach) paths() []string {
	out := make([]string, 0, len(g))
	for p := range g {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
