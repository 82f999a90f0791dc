package gaterun

import (
	"path"
	"slices"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/judge"
)

// Reach maps each repository file a gate runs beyond the files its
// command names (GateScripts) to why it is protected.
type Reach map[string]string

// GateReach follows what gs run: the shell scripts, makefiles and
// package.json test scripts they reach (judge.ScriptReader), each read
// by show, which the caller points at the run's base commit, never at a
// work tree an executor may have changed.
func GateReach(gs []gates.Gate, show func(p string) ([]byte, bool)) Reach {
	reached := Reach{}
	rd := judge.NewScriptReader(show)
	for _, g := range gs {
		seeds := GateScripts([]gates.Gate{g})
		for _, w := range CommandWords(g.Command) {
			switch path.Base(w) {
			case "npm", "yarn", "pnpm", "bun":
				// pseudo-paths: follow reads package.json's test scripts
				seeds = append(seeds, "package.json#pretest", "package.json#test", "package.json#posttest")
			}
		}
		for _, s := range seeds {
			rd.Follow(s, func(p, via string) {
				if _, ok := reached[p]; !ok {
					reached[p] = "run by gate " + g.Name + " through " + via
				}
			})
		}
	}
	return reached
}

// Paths lists the files, sorted.
func (g Reach) Paths() []string {
	out := make([]string, 0, len(g))
	for p := range g {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
