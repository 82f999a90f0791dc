package runstate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io/fs"
	"os"
	"time"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/fsutil"
	"github.com/planx-dev/planx/planparse"
)

// The state is saved at every task, and what grows with the plan — its
// tasks' hashes, the tasks to run, the log with an entry per task — would
// make every save cost what the whole run holds, and a task late in a
// 2,000-task plan twice what an early one costs. So the file holds two JSON
// values: the state itself, indented, without those (a person reads it, a
// test greps it), then the bulk, compact, made of encodings kept from the
// save before for every part that did not change (execlog's entries are
// kept the same way). An older file, one value holding everything, loads
// too.

// bulk is the second value of the state file.
type bulk struct {
	Plan     []PlannedTask      `json:"plan"`
	ToRun    []planparse.TaskID `json:"to_run"`
	Log      *execlog.Log       `json:"log"`
	LogTasks []execlog.Task     `json:"log_tasks"`
}

// savedBulk is the encodings of the last save's plan and tasks to run,
// under a fingerprint of what they encoded.
type savedBulk struct {
	seed             maphash.Seed
	planSum, runSum  uint64
	planJSON, toJSON []byte
}

// Load reads the saved run state; (nil, nil) when there is none.
func Load(repo *gitops.Repo) (*State, error) {
	data, err := os.ReadFile(Path(repo))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read run state: %w", err)
	}
	st, err := decode(data)
	if err != nil {
		return nil, fmt.Errorf("read run state %s: %w (if it is corrupt, delete it: the run's commits stay in git, its rollback commit under refs/planx/runs/)", Path(repo), err)
	}
	return st, nil
}

// decode reads a state file's values: the state, then the bulk if any.
func decode(data []byte) (*State, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var st State
	if err := dec.Decode(&st); err != nil {
		return nil, err
	}
	if !dec.More() {
		return &st, nil
	}
	var b bulk
	if err := dec.Decode(&b); err != nil {
		return nil, err
	}
	st.Plan, st.ToRun, st.Log = b.Plan, b.ToRun, b.Log
	if st.Log != nil {
		st.Log.Tasks = b.LogTasks
	}
	return &st, nil
}

// Save writes the state, atomically.
func (st *State) Save(repo *gitops.Repo) error {
	st.Updated = time.Now().UTC()
	data, err := st.encode()
	if err != nil {
		return fmt.Errorf("save run state: %w", err)
	}
	return fsutil.Replace(Path(repo), data, 0o644, repo.Config().Durable())
}

// encode is the state file's bytes.
func (st *State) encode() ([]byte, error) {
	head := *st
	head.Plan, head.ToRun, head.Log = nil, nil, nil
	out, err := json.MarshalIndent(&head, "", "  ")
	if err != nil {
		return nil, err
	}
	if st.saved == nil {
		st.saved = &savedBulk{seed: maphash.MakeSeed()}
	}
	s := st.saved
	if sum := s.sumPlan(st.Plan); s.planJSON == nil || sum != s.planSum {
		if s.planJSON, err = json.Marshal(st.Plan); err != nil {
			return nil, err
		}
		s.planSum = sum
	}
	if sum := s.sumIDs(st.ToRun); s.toJSON == nil || sum != s.runSum {
		if s.toJSON, err = json.Marshal(st.ToRun); err != nil {
			return nil, err
		}
		s.runSum = sum
	}
	out = append(out, "\n{\"plan\":"...)
	out = append(out, s.planJSON...)
	out = append(out, ",\"to_run\":"...)
	out = append(out, s.toJSON...)
	out = append(out, ",\"log\":"...)
	if st.Log == nil {
		out = append(out, "null,\"log_tasks\":null}\n"...)
		return out, nil
	}
	// The log's own fields, then its entries, each encoded once.
	lh := *st.Log
	lh.Tasks = nil
	b, err := json.Marshal(&lh)
	if err != nil {
		return nil, err
	}
	out = append(out, b...)
	out = append(out, ",\"log_tasks\":"...)
	if out, err = st.Log.AppendTasksJSON(out); err != nil {
		return nil, err
	}
	return append(out, "}\n"...), nil
}

// sumPlan is a fingerprint of every field of the planned tasks.
func (s *savedBulk) sumPlan(plan []PlannedTask) uint64 {
	var h maphash.Hash
	h.SetSeed(s.seed)
	if plan == nil {
		h.WriteByte(0)
	}
	for _, p := range plan {
		h.WriteString(string(p.ID))
		h.WriteByte(0)
		h.WriteString(p.Hash)
		h.WriteByte(0)
	}
	return h.Sum64()
}

// sumIDs is a fingerprint of a list of task IDs.
func (s *savedBulk) sumIDs(ids []planparse.TaskID) uint64 {
	var h maphash.Hash
	h.SetSeed(s.seed)
	if ids == nil {
		h.WriteByte(0)
	}
	for _, id := range ids {
		h.WriteByte(1)
		h.WriteString(string(id))
		h.WriteByte(0)
	}
	return h.Sum64()
}
