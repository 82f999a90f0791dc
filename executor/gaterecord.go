package executor

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/planparse"
)

// This file keeps planx's local records of what it gated and committed
// (gitops.GateRecord, gitops.MadeCommit): verify tells the commits planx
// made and the trees its gates passed on from anything else, and a gate
// that already passed on an identical tree is not run again.

// gateKey names the tree the gates see: the index (staged
// since verify) without the plan and the execution log, which planx itself
// changes between attempts (a tick, timestamps) and which the gates do not
// judge. "" when it cannot be computed: nothing is then cached.
func (r *runner) gateKey(ctx context.Context) gitops.SHA {
	tree, err := r.repo.Index().Tree(ctx)
	if err != nil {
		return ""
	}
	key, err := r.repo.Objects().TreeWithout(tree, r.planRel, r.log.Path)
	if err != nil {
		return ""
	}
	return key
}

// commandHash is the cache key part of gate g for task t.
func (r *runner) commandHash(t *planparse.Task, g gates.Gate) string {
	return gates.CommandHash(g.Expand(t.BlastRadius), gates.ConfiguredEnv(os.Environ(), r.cfg.Env))
}

// cachedGates returns, for the gates of sel that already passed on key with
// the same command and configured environment, their passing record.
func (r *runner) cachedGates(key gitops.SHA, t *planparse.Task, sel []gates.Gate) map[string]gitops.GateRecord {
	out := map[string]gitops.GateRecord{}
	if key == "" || r.o.NoCache {
		return out
	}
	recs, err := r.repo.Records().Gates(key)
	if err != nil {
		return out
	}
	for _, g := range sel {
		h := r.commandHash(t, g)
		for _, rec := range recs {
			if rec.Gate == g.Name && rec.CommandHash == h && rec.Passed {
				out[g.Name] = rec
			}
		}
	}
	return out
}

// recordGatesPassed records, under the tree key of the index as it stands,
// the gates of lt that passed: called when a task stops after its gates
// passed, so that a resume on the same tree runs none of them.
func (r *runner) recordGatesPassed(ctx context.Context, t *planparse.Task, lt *execlog.Task) {
	r.gatesPassed = false
	if lt == nil || r.o.NoCache {
		return
	}
	key := r.gateKey(ctx)
	if key == "" {
		return
	}
	var recs []gitops.GateRecord
	for _, g := range lt.Gates {
		if g.Passed && !g.Cached {
			recs = append(recs, gitops.GateRecord{Tree: key, Gate: g.Name, CommandHash: r.commandHash(t, r.gateDef(g)),
				Passed: true, DurationMS: g.Duration.Milliseconds(), By: "run", At: r.o.now()})
		}
	}
	if err := r.repo.Records().AddGates(recs...); err != nil {
		r.out.warn(t.ID, "could not record the gate results: "+err.Error())
	}
}

// gateDef is the definition the logged gate g ran: a configured gate, or an
// acceptance check whose command the log holds.
func (r *runner) gateDef(g execlog.Gate) gates.Gate {
	for _, d := range r.gates {
		if d.Name == g.Name {
			return d
		}
	}
	return gates.Gate{Name: g.Name, Command: g.Command}
}

// recordGated records the gates just run on key, passed or not. A failure
// to write is only a warning: the records save work, they do not decide it.
func (r *runner) recordGated(key gitops.SHA, t *planparse.Task, sel []gates.Gate, results []gates.Result) {
	if key == "" {
		return
	}
	var recs []gitops.GateRecord
	for _, res := range results {
		for _, g := range sel {
			if g.Name == res.Name {
				recs = append(recs, gitops.GateRecord{Tree: key, Gate: g.Name, CommandHash: r.commandHash(t, g),
					Passed: res.Passed, DurationMS: res.Duration.Milliseconds(), By: "run", At: r.o.now()})
			}
		}
	}
	if err := r.repo.Records().AddGates(recs...); err != nil {
		r.out.warn(t.ID, "could not record the gate results: "+err.Error())
	}
}

// cachedResult is the log entry of a gate taken from a record.
func cachedResult(g gates.Gate, t *planparse.Task, rec gitops.GateRecord) execlog.Gate {
	return execlog.Gate{Name: g.Name, Command: g.Expand(t.BlastRadius), Passed: true,
		Duration: time.Duration(rec.DurationMS) * time.Millisecond, Cached: true,
		Tail: "(passed on this tree before, at " + rec.At.Format(time.RFC3339) + "; not run again)\n"}
}

// recordPending records that planx is about to commit t on r.expect: a
// commit a crash keeps planx from recording is then recognised as its own
// (made.go), not as a stranger's with copied trailers.
func (r *runner) recordPending(t *planparse.Task) {
	if err := r.repo.Records().AddMade(r.st.RunID, gitops.MadeCommit{Task: string(t.ID), Parent: r.expect, Pending: true}); err != nil {
		r.out.warn(t.ID, "could not record the commit: "+err.Error())
	}
}

// recordCommit records the task commit planx just made and, by the
// commit's tree, the gates that passed for it: verify's evidence that this
// commit, and no rewrite of it, is what the gates judged.
func (r *runner) recordCommit(ctx context.Context, t *planparse.Task, lt *execlog.Task, sha gitops.SHA) gitops.SHA {
	tree, err := r.repo.Objects().TreeOf(ctx, sha)
	if err != nil {
		r.out.warn(t.ID, "could not record the commit: "+err.Error())
		return ""
	}
	r.gatesPassed = false
	var recs []gitops.GateRecord
	for _, g := range lt.Gates {
		if !g.Passed {
			continue
		}
		recs = append(recs, gitops.GateRecord{Tree: tree, Gate: g.Name, CommandHash: r.commandHash(t, r.gateDef(g)),
			Passed: true, DurationMS: g.Duration.Milliseconds(), Commit: sha, By: "run", At: r.o.now()})
	}
	err = r.repo.Records().AddMade(r.st.RunID, gitops.MadeCommit{Task: string(t.ID), Commit: sha, Tree: tree})
	if err == nil {
		err = r.repo.Records().AddGates(recs...)
	}
	if err != nil {
		r.out.warn(t.ID, "could not record the commit: "+err.Error())
	}
	return tree
}

// overridden reports which gates a --gate flag replaced: the config or the
// plan defines one of that name. Their trailers say so (`test=pass 12ms
// overridden`), so verify can tell a gate weakened on the command line.
func (r *runner) overridden() map[string]bool {
	out := map[string]bool{}
	defined := map[string]bool{}
	for _, g := range r.cfg.Gates {
		defined[g.Name] = true
	}
	for _, d := range r.plan.Gates {
		defined[strings.TrimSpace(d.Name)] = true
	}
	for _, f := range r.o.Gates {
		if g, err := gates.ParseFlag(f); err == nil && defined[g.Name] {
			out[g.Name] = true
		}
	}
	return out
}
