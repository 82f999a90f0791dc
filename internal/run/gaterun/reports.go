package gaterun

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fsutil"
	"github.com/planx-dev/planx/internal/testreport"
)

// Reports keeps the test reports of a run by the commit whose tree they
// judged, under the run's directory, so that a task's baseline is usually
// the report of the task before it (one gate run per task) and a resume
// finds it again.
type Reports struct {
	dir     string
	pending map[string]testreport.Report // this task's reports, until its commit
}

// NewReports is the book of the run whose directory is runDir.
func NewReports(runDir string) *Reports {
	return &Reports{dir: filepath.Join(runDir, "reports")}
}

func (b *Reports) path(sha gitops.SHA, key string) string {
	return filepath.Join(b.dir, string(sha)+"-"+key+".json")
}

// Get is the report of key on the tree of commit sha, if the book has it.
func (b *Reports) Get(sha gitops.SHA, key string) (testreport.Report, bool) {
	var rep testreport.Report
	data, err := os.ReadFile(b.path(sha, key))
	if err != nil || json.Unmarshal(data, &rep) != nil {
		return rep, false
	}
	return rep, true
}

// Put files the report of key on the tree of commit sha; a write that
// fails only costs a gate run later.
func (b *Reports) Put(sha gitops.SHA, key string, rep testreport.Report) {
	data, err := json.Marshal(rep)
	if err != nil {
		return
	}
	if os.MkdirAll(b.dir, 0o755) == nil {
		_ = fsutil.WriteAtomic(b.path(sha, key), data, 0o644)
	}
}

// Hold keeps a report of the task being judged until its commit.
func (b *Reports) Hold(key string, rep testreport.Report) {
	if b.pending == nil {
		b.pending = map[string]testreport.Report{}
	}
	b.pending[key] = rep
}

// Held is the report of key held for the task being judged, if any.
func (b *Reports) Held(key string) (testreport.Report, bool) {
	rep, ok := b.pending[key]
	return rep, ok
}

// Committed files the held reports under the task's commit: the next
// task's baseline.
func (b *Reports) Committed(sha gitops.SHA) {
	for k, rep := range b.pending {
		b.Put(sha, k, rep)
	}
	b.pending = nil
}
