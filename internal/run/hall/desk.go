package hall

import (
	"sync"
	"time"

	"github.com/planx-dev/planx/planparse"
)

// Desk is where a part of the engine reports what it found and saw while
// it worked on a task.
type Desk interface {
	// Issue records a finding about task id in the run's log; resolution
	// says how it was let pass ("" for a bare warning).
	Issue(id planparse.TaskID, msg, resolution string)
	// Say shows msg about task id to the person running planx.
	Say(id planparse.TaskID, msg string)
	// Ask puts a yes/no question to the person: false when nobody can
	// answer (no terminal, --ci, a wave in flight).
	Ask(question string) bool
	// Save writes the run's state and log, so that what was recorded
	// survives a crash from here on.
	Save() error
	// Now is the run's clock (fixed in tests).
	Now() time.Time
}

// Warn records msg about task id in the run's log and says it.
func Warn(d Desk, id planparse.TaskID, msg string) {
	d.Issue(id, msg, "")
	d.Say(id, msg)
}

// InWave is d for a task of a wave, which runs beside others: what it
// records and says goes under the wave's lock mu, nobody is asked in the
// middle of a wave, and nothing is saved for one task (the wave records
// its tasks' ends for all of them at once).
func InWave(d Desk, mu sync.Locker) Desk { return wave{d: d, mu: mu} }

type wave struct {
	d  Desk
	mu sync.Locker
}

func (w wave) Issue(id planparse.TaskID, msg, resolution string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.d.Issue(id, msg, resolution)
}

func (w wave) Say(id planparse.TaskID, msg string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.d.Say(id, msg)
}

func (w wave) Ask(string) bool { return false }
func (w wave) Save() error     { return nil }
func (w wave) Now() time.Time  { return w.d.Now() }
