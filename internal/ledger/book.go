package ledger

import (
	"context"
	"os"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/ledger/records"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/planparse"
)

// Book keeps planx's local records of what it gated and committed
// (records.GateRecord, records.MadeCommit): verify tells the commits planx
// made and the trees its gates passed on from anything else, and a gate
// that already passed on an identical tree is not run again. It is what
// of the run the records need, taken when they are read or written.
type Book struct {
	Repo  *gitops.Repo
	RunID string
	Env   []string     // the configured environment, part of a gate's hash
	Defs  []gates.Gate // the run's gates: what a logged gate result ran
	// PlanRel and LogPath are planx's own files, left out of a tree key.
	PlanRel, LogPath string
	NoCache          bool // --no-cache: no gate result is reused
	Now              func() time.Time
	Out              *progress.Progress
}

// GateKey names the tree the gates see: the index (staged
// since verify) without the plan and the execution log, which planx itself
// changes between attempts (a tick, timestamps) and which the gates do not
// judge. "" when it cannot be computed: nothing is then cached.
func (b Book) GateKey(ctx context.Context) gitops.SHA {
	tree, err := b.Repo.Index().Tree(ctx)
	if err != nil {
		return ""
	}
	key, err := b.Repo.Objects().TreeWithout(tree, b.PlanRel, b.LogPath)
	if err != nil {
		return ""
	}
	return key
}

// commandHash is the cache key part of gate g for task t.
func (b Book) commandHash(t *planparse.Task, g gates.Gate) string {
	return gates.CommandHash(g.Expand(t.BlastRadius), gates.ConfiguredEnv(os.Environ(), b.Env))
}

// CachedGates returns, for the gates of sel that already passed on key with
// the same command and configured environment, their passing record.
func (b Book) CachedGates(key gitops.SHA, t *planparse.Task, sel []gates.Gate) map[string]records.GateRecord {
	out := map[string]records.GateRecord{}
	if key == "" || b.NoCache {
		return out
	}
	recs, err := records.Of(b.Repo).Gates(key)
	if err != nil {
		return out
	}
	for _, g := range sel {
		h := b.commandHash(t, g)
		for _, rec := range recs {
			if rec.Gate == g.Name && rec.CommandHash == h && rec.Passed {
				out[g.Name] = rec
			}
		}
	}
	return out
}

// RecordGatesPassed records, under the tree key of the index as it stands,
// the gates of lt that passed: called when a task stops after its gates
// passed, so that a resume on the same tree runs none of them.
func (b Book) RecordGatesPassed(ctx context.Context, t *planparse.Task, lt *execlog.Task) {
	if lt == nil || b.NoCache {
		return
	}
	key := b.GateKey(ctx)
	if key == "" {
		return
	}
	var recs []records.GateRecord
	for _, g := range lt.Gates {
		if g.Passed && !g.Cached && len(g.Known) == 0 {
			recs = append(recs, records.GateRecord{Tree: key, Gate: g.Name, CommandHash: b.commandHash(t, b.gateDef(g)),
				Passed: true, DurationMS: g.Duration.Milliseconds(), By: "run", At: b.Now()})
		}
	}
	if err := records.Of(b.Repo).AddGates(recs...); err != nil {
		b.Out.Warn(t.ID, "could not record the gate results: "+err.Error())
	}
}

// gateDef is the definition the logged gate g ran: a configured gate, or an
// acceptance check whose command the log holds.
func (b Book) gateDef(g execlog.Gate) gates.Gate {
	for _, d := range b.Defs {
		if d.Name == g.Name {
			return d
		}
	}
	return gates.Gate{Name: g.Name, Command: g.Command}
}

// RecordGated records the gates just run on key, passed or not. A failure
// to write is only a warning: the records save work, they do not decide it.
func (b Book) RecordGated(key gitops.SHA, t *planparse.Task, sel []gates.Gate, results []gates.Result) {
	if key == "" {
		return
	}
	var recs []records.GateRecord
	for _, res := range results {
		for _, g := range sel {
			if g.Name == res.Name {
				recs = append(recs, records.GateRecord{Tree: key, Gate: g.Name, CommandHash: b.commandHash(t, g),
					Passed: res.Passed, DurationMS: res.Duration.Milliseconds(), By: "run", At: b.Now()})
			}
		}
	}
	if err := records.Of(b.Repo).AddGates(recs...); err != nil {
		b.Out.Warn(t.ID, "could not record the gate results: "+err.Error())
	}
}

// CachedResult is the log entry of a gate taken from a record.
func CachedResult(g gates.Gate, t *planparse.Task, rec records.GateRecord) execlog.Gate {
	return execlog.Gate{Name: g.Name, Command: g.Expand(t.BlastRadius), Passed: true,
		Duration: time.Duration(rec.DurationMS) * time.Millisecond, Cached: true,
		Tail: "(passed on this tree before, at " + rec.At.Format(time.RFC3339) + "; not run again)\n"}
}

// RecordPending records that planx is about to commit t on parent: a
// commit a crash keeps planx from recording is then recognised as its own
// (verify's made commits), not as a stranger's with copied trailers.
func (b Book) RecordPending(t *planparse.Task, parent gitops.SHA) {
	if err := records.Of(b.Repo).AddMade(b.RunID, records.MadeCommit{Task: string(t.ID), Parent: parent, Pending: true}); err != nil {
		b.Out.Warn(t.ID, "could not record the commit: "+err.Error())
	}
}

// RecordCommit records the task commit planx just made and, by the
// commit's tree, the gates that passed for it: verify's evidence that this
// commit, and no rewrite of it, is what the gates judged.
func (b Book) RecordCommit(ctx context.Context, t *planparse.Task, lt *execlog.Task, sha gitops.SHA) gitops.SHA {
	tree, err := b.Repo.Objects().TreeOf(ctx, sha)
	if err != nil {
		b.Out.Warn(t.ID, "could not record the commit: "+err.Error())
		return ""
	}
	var recs []records.GateRecord
	for _, g := range lt.Gates {
		// A gate let pass with known failures did not pass on this tree:
		// no record says it did, for a later run to reuse.
		if !g.Passed || len(g.Known) > 0 {
			continue
		}
		recs = append(recs, records.GateRecord{Tree: tree, Gate: g.Name, CommandHash: b.commandHash(t, b.gateDef(g)),
			Passed: true, DurationMS: g.Duration.Milliseconds(), Commit: sha, By: "run", At: b.Now()})
	}
	err = records.Of(b.Repo).AddMade(b.RunID, records.MadeCommit{Task: string(t.ID), Commit: sha, Tree: tree})
	if err == nil {
		err = records.Of(b.Repo).AddGates(recs...)
	}
	if err != nil {
		b.Out.Warn(t.ID, "could not record the commit: "+err.Error())
	}
	return tree
}

// RecordWaveCommit records a wave's task commit as one planx made (before
// the branch moves to it, so that a crash cannot leave a commit of the run
// planx has no record of) and returns its tree.
func (b Book) RecordWaveCommit(ctx context.Context, id planparse.TaskID, c gitops.SHA) gitops.SHA {
	tree, err := b.Repo.Objects().TreeOf(ctx, c)
	if err == nil {
		err = records.Of(b.Repo).AddMade(b.RunID, records.MadeCommit{Task: string(id), Commit: c, Tree: tree})
	}
	if err != nil {
		b.Out.Warn(id, "could not record the commit: "+err.Error())
	}
	return tree
}

// RecordWaveGates records gates that passed on commit c's tree: the tree
// each record names is the one the gates ran on (a task's own work on the
// wave's base, or the wave's combined tree), never another.
func (b Book) RecordWaveGates(ctx context.Context, t *planparse.Task, c gitops.SHA, gs []execlog.Gate) {
	tree, err := b.Repo.Objects().TreeOf(ctx, c)
	if err != nil {
		return
	}
	var recs []records.GateRecord
	for _, g := range gs {
		if g.Passed && len(g.Known) == 0 {
			recs = append(recs, records.GateRecord{Tree: tree, Gate: g.Name, CommandHash: b.commandHash(t, b.gateDef(g)),
				Passed: true, DurationMS: g.Duration.Milliseconds(), Commit: c, By: "run", At: b.Now()})
		}
	}
	if err := records.Of(b.Repo).AddGates(recs...); err != nil {
		b.Out.Warn(t.ID, "could not record the gates: "+err.Error())
	}
}
