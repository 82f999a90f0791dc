package records

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/planx-dev/planx/gitops"
)

// Records are what planx knows locally about the commits it made and the
// trees its gates passed on. They live under the common git dir, read by
// every work tree of the repository and never pushed: a clone has none, so
// what they vouch for is "checked here". Each work tree writes its own
// (the main one planx/records/, a linked one planx/records-linked/<name>/,
// its name under .git/worktrees/), so that a run's guard (Mark),
// which takes out what was written under its records while a task ran,
// never takes a run's of another work tree; they stay when a linked work
// tree is removed.
//
//	planx/records/trees/<tree>   JSON lines, one GateRecord each
//	planx/records/runs/<run-id>  JSON lines, one MadeCommit each
//
// Files are appended to, one line per write (O_APPEND of a line is atomic
// enough between the few planx processes of one repository), and read whole.

// GateRecord says a gate ran on a tree with a result.
type GateRecord struct {
	Tree gitops.SHA `json:"tree"`
	Gate string     `json:"gate"`
	// CommandHash identifies what ran: the expanded command and the
	// environment it was configured with (see gates.CommandHash).
	CommandHash string     `json:"command_hash"`
	Passed      bool       `json:"passed"`
	DurationMS  int64      `json:"duration_ms"`
	Commit      gitops.SHA `json:"commit,omitempty"` // the commit the tree is of, when there was one
	By          string     `json:"by"`               // "run" (planx run/resume) or "verify" (--rerun-gates)
	At          time.Time  `json:"at"`
}

// MadeCommit is a task commit planx made, with its tree; or, with Pending,
// one it is about to make on Parent (written first, so that a commit a crash
// kept planx from recording can be told from one made by someone else).
type MadeCommit struct {
	Task    string     `json:"task"`
	Commit  gitops.SHA `json:"commit,omitempty"`
	Tree    gitops.SHA `json:"tree,omitempty"`
	Parent  gitops.SHA `json:"parent,omitempty"`
	Pending bool       `json:"pending,omitempty"`
}

// RunRecord is what this repository recorded of a run.
type RunRecord struct {
	Known   bool                  // the run has a record here at all
	Commits map[string]MadeCommit // task → the latest commit planx made for it
	Pending map[string]MadeCommit // task → the latest commit planx was about to make
}

var (
	hexRE   = regexp.MustCompile(`^[0-9a-f]{40,64}$`)
	runIDRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
)

// Store reads the records of the repository a work tree belongs to and
// appends to its work tree's. They are plain files: no git runs.
type Store struct {
	dir    string // this work tree's: written, and guarded
	common string // <common git dir>/planx
}

// Of returns the records of r's repository, written in r's work tree.
func Of(r *gitops.Repo) Store {
	common := filepath.Join(r.CommonDir, "planx")
	rs := Store{dir: filepath.Join(common, "records"), common: common}
	if filepath.Dir(r.GitDir) == filepath.Join(r.CommonDir, "worktrees") {
		rs.dir = filepath.Join(common, "records-linked", filepath.Base(r.GitDir))
	}
	return rs
}

// dirs are the records of every work tree, this one's first.
func (rs Store) dirs() []string {
	dirs := []string{rs.dir}
	if main := filepath.Join(rs.common, "records"); main != rs.dir {
		dirs = append(dirs, main)
	}
	linked, _ := filepath.Glob(filepath.Join(rs.common, "records-linked", "*"))
	for _, d := range linked {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() && d != rs.dir {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

func (rs Store) treeRecordPath(dir string, tree gitops.SHA) (string, error) {
	if !hexRE.MatchString(string(tree)) {
		return "", fmt.Errorf("gate record: %q is not an object id", tree)
	}
	return filepath.Join(dir, "trees", string(tree)), nil
}

func (rs Store) runRecordPath(dir, run string) (string, error) {
	if !runIDRE.MatchString(run) {
		return "", fmt.Errorf("run record: %q is not a run id", run)
	}
	return filepath.Join(dir, "runs", run), nil
}

// AddGates appends gate records, each to the file of its tree.
func (rs Store) AddGates(recs ...GateRecord) error {
	for _, rec := range recs {
		p, err := rs.treeRecordPath(rs.dir, rec.Tree)
		if err != nil {
			return err
		}
		if err := appendJSONLine(p, rec); err != nil {
			return fmt.Errorf("record gate %s on tree %s: %w", rec.Gate, rec.Tree.Short(), err)
		}
	}
	return nil
}

// Gates returns every gate record of tree, of every work tree (this
// one's first, each oldest first); none is not an error.
func (rs Store) Gates(tree gitops.SHA) ([]GateRecord, error) {
	var out []GateRecord
	for _, dir := range rs.dirs() {
		p, err := rs.treeRecordPath(dir, tree)
		if err != nil {
			return nil, err
		}
		err = readJSONLines(p, func(b []byte) error {
			var rec GateRecord
			if err := json.Unmarshal(b, &rec); err != nil {
				return err
			}
			if rec.Tree == tree { // a line copied from another tree's file vouches for nothing
				out = append(out, rec)
			}
			return nil
		})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("read gate records of tree %s: %w", tree.Short(), err)
		}
	}
	return out, nil
}

// AddMade appends a task commit planx made to its run's record.
func (rs Store) AddMade(run string, m MadeCommit) error {
	p, err := rs.runRecordPath(rs.dir, run)
	if err != nil {
		return err
	}
	if err := appendJSONLine(p, m); err != nil {
		return fmt.Errorf("record commit %s of %s: %w", m.Commit.Short(), m.Task, err)
	}
	return nil
}

// Made returns what planx recorded of run: the task commits it made (the
// latest per task) and those it was about to make. A run is recorded in
// the one work tree it ran in. Known is false in a clone that did not
// make the run.
func (rs Store) Made(run string) (RunRecord, error) {
	rec := RunRecord{Commits: map[string]MadeCommit{}, Pending: map[string]MadeCommit{}}
	if !runIDRE.MatchString(run) {
		return rec, nil // not a run id planx would have written: no record
	}
	for _, dir := range rs.dirs() {
		p, _ := rs.runRecordPath(dir, run)
		err := readJSONLines(p, func(b []byte) error {
			rec.Known = true
			var m MadeCommit
			if err := json.Unmarshal(b, &m); err != nil {
				return err
			}
			if m.Pending {
				rec.Pending[m.Task] = m
			} else {
				rec.Commits[m.Task] = m
			}
			return nil
		})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return RunRecord{}, fmt.Errorf("read the commits of run %s: %w", run, err)
		}
	}
	return rec, nil
}

func appendJSONLine(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, werr := f.Write(append(b, '\n'))
	return errors.Join(werr, f.Close())
}

// readJSONLines calls f with each line of path; a missing file has none but
// is reported as fs.ErrNotExist for callers that care. A torn last line (a
// crash mid-append) is skipped.
func readJSONLines(path string, f func([]byte) error) error {
	file, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err != nil {
		return err
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || !json.Valid(line) {
			continue
		}
		if err := f(line); err != nil {
			return err
		}
	}
	return sc.Err()
}
