package review

import (
	"fmt"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/ledger/records"
	"github.com/planx-dev/planx/internal/record"
)

// This file decides what vouches for each task commit. Trailers can be
// copied and notes written by anyone; what planx trusts is its own local
// record of the commits it made and of the trees its gates passed on
// (records.MadeCommit, records.GateRecord). A commit planx made, or whose tree
// has a passing record of every gate it claims, is verified; one of a run
// this repository made that is neither was rewritten (amend, rebase,
// cherry-pick) or made by hand; one of a run made elsewhere (a fresh clone
// in CI) was gated there and not here.

// at locates a TaskReport in Report.Runs.
type at struct{ run, task int }

// checked is a task commit whose evidence was judged; pending holds the
// finding to report unless a gate re-run settles it.
type checked struct {
	t       TaskCommit
	plan    string
	run     *Run
	last    bool // the run's last task commit: its final gates count too
	at      at
	pending *Finding
}

type evidence struct {
	checked []*checked
	made    map[string]map[string]records.MadeCommit // run id → task → commit
	known   map[string]bool                          // run ids this repository made
	records map[gitops.SHA][]records.GateRecord
	notes   map[gitops.SHA][]byte
}

func (c *checker) madeIn(run string) (map[string]records.MadeCommit, bool, error) {
	if c.ev.made == nil {
		c.ev.made, c.ev.known = map[string]map[string]records.MadeCommit{}, map[string]bool{}
	}
	if m, ok := c.ev.made[run]; ok {
		return m, c.ev.known[run], nil
	}
	rec, err := records.Of(c.repo).Made(run)
	if err != nil {
		return nil, false, err
	}
	c.ev.made[run], c.ev.known[run] = rec.Commits, rec.Known
	return rec.Commits, rec.Known, nil
}

func (c *checker) recordsOf(tree gitops.SHA) ([]records.GateRecord, error) {
	if c.ev.records == nil {
		c.ev.records = map[gitops.SHA][]records.GateRecord{}
	}
	if rs, ok := c.ev.records[tree]; ok {
		return rs, nil
	}
	rs, err := records.Of(c.repo).Gates(tree)
	if err != nil {
		return nil, err
	}
	c.ev.records[tree] = rs
	return rs, nil
}

// loadNotes reads the gate notes of the run's task commits in scope at once.
func (c *checker) loadNotes(r *Run, scope map[gitops.SHA]bool) error {
	var shas []gitops.SHA
	for _, t := range r.Tasks {
		if scope == nil || scope[t.Commit] {
			shas = append(shas, t.Commit)
		}
	}
	notes, err := c.repo.Notes().ShowAll(c.ctx, record.NoteRef, shas)
	if err != nil {
		return err
	}
	if c.ev.notes == nil {
		c.ev.notes = map[gitops.SHA][]byte{}
	}
	for k, v := range notes {
		c.ev.notes[k] = v
	}
	return nil
}

// evidence judges task commit t: its warnings and overridden gates, its
// note, and what vouches for it. A commit nothing vouches for gets its
// finding later (settle), once a re-run of its gates may have settled it.
func (c *checker) evidence(r *Run, t *TaskCommit, loc at, last bool) (string, error) {
	add := func(sev, kind, format string, args ...any) {
		c.rep.add(Finding{Severity: sev, Kind: kind, Run: r.ID, Task: t.ID, Commit: t.Commit, Message: fmt.Sprintf(format, args...)})
	}
	strict := SeverityWarning
	if c.opts.Strict {
		strict = SeverityError
	}
	label := t.ID + " (" + t.Commit.Short() + ")"
	for _, w := range t.Warnings {
		add(SeverityWarning, KindTaskWarning, "%s: planx warned when it committed: %s", label, w)
	}
	for _, g := range t.Gates {
		if g.Overridden {
			add(strict, KindOverridden, "%s: gate %s was overridden on the command line (--gate): the configured %s gate did not run", label, g.Name, g.Name)
		}
	}
	if msg := noteProblem(c.ev.notes[t.Commit], t); msg != "" {
		add(SeverityError, KindNote, "%s: %s", label, msg)
	}
	ck := &checked{t: *t, plan: r.Plan, run: r, last: last, at: loc}
	c.ev.checked = append(c.ev.checked, ck)
	made, known, err := c.madeIn(r.ID)
	if err != nil {
		return "", err
	}
	m, madeOne := made[t.ID]
	if madeOne && m.Commit == t.Commit {
		return EvidenceMade, nil
	}
	ok, err := c.treeRecorded(t)
	if err != nil || ok {
		return EvidenceRecorded, err
	}
	f := Finding{Severity: strict, Kind: KindElsewhere, Run: r.ID, Task: t.ID, Commit: t.Commit,
		Message: fmt.Sprintf("%s: gated locally, not re-verified here (this repository has no record of run %s; --rerun-gates re-runs its gates)", label, r.ID)}
	ev := EvidenceElsewhere
	if known {
		f.Severity, f.Kind, ev = SeverityError, KindUnverified, EvidenceUnverified
		if madeOne {
			f.Message = fmt.Sprintf("%s: commit %s is not the commit planx made (%s); its tree was never gated", t.ID, t.Commit.Short(), m.Commit.Short())
		} else {
			f.Message = fmt.Sprintf("%s: commit %s was not made by planx (run %s made no commit for %s here); its tree was never gated", t.ID, t.Commit.Short(), r.ID, t.ID)
		}
	}
	ck.pending = &f
	return ev, nil
}

// treeRecorded reports whether t's tree has a passing record of every gate
// its trailers claim (and there is at least one).
func (c *checker) treeRecorded(t *TaskCommit) (bool, error) {
	if t.Tree == "" || len(t.Gates) == 0 {
		return false, nil
	}
	recs, err := c.recordsOf(t.Tree)
	if err != nil {
		return false, err
	}
	for _, g := range slices.Concat(t.Gates, t.WaveGates) {
		passed := false
		for _, rec := range recs {
			passed = passed || (rec.Gate == g.Name && rec.Passed)
		}
		if !passed {
			return false, nil
		}
	}
	return true, nil
}

// noteProblem says what is wrong with the gate note of t ("" when it is
// absent or belongs to t): a note names the commit and tree it was written
// for, and its verdicts are the trailers'.
func noteProblem(b []byte, t *TaskCommit) string {
	if b == nil {
		return ""
	}
	p, ok := record.ParseNote(b)
	switch {
	case !ok:
		return fmt.Sprintf("the note on %s in %s is not a planx gate note", t.Commit.Short(), record.NoteRef)
	case p.Commit == "":
		return fmt.Sprintf("the gate note on %s names no commit: planx did not write it for this commit", t.Commit.Short())
	case p.Commit != string(t.Commit):
		return fmt.Sprintf("the gate note on %s was written for commit %s: it belongs to another commit", t.Commit.Short(), gitops.SHA(p.Commit).Short())
	case p.Tree != "" && p.Tree != string(t.Tree):
		return fmt.Sprintf("the gate note on %s was written for tree %s, not the commit's %s", t.Commit.Short(), gitops.SHA(p.Tree).Short(), t.Tree.Short())
	case p.Task != t.ID:
		return fmt.Sprintf("the gate note on %s is of task %s", t.Commit.Short(), p.Task)
	}
	var bad []string
	for _, g := range t.Gates {
		want := map[bool]string{true: "pass", false: "fail"}[g.Passed]
		if v, ok := p.Verdicts[g.Name]; ok && v != want {
			bad = append(bad, fmt.Sprintf("%s is %s in the note, %s in the trailers", g.Name, v, want))
		}
	}
	if len(bad) > 0 {
		return "the gate note contradicts the commit: " + strings.Join(bad, "; ")
	}
	return ""
}

// NoteProblem is noteProblem for show: "" when note is planx's for t.
func NoteProblem(b []byte, t TaskCommit) string { return noteProblem(b, &t) }
