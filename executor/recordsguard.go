package executor

import (
	"github.com/planx-dev/planx/verify"
)

// An executor could forge planx's records (verify.Records): an agent, or a
// parallel wave's steps, runs under a mark. A parallel wave's tasks run at
// once under one mark (wave.Flight): planx records their gates once they
// have all ended, and a forgery, which cannot be told to one of them,
// fails all that ran.

// recordsGuard guards the records with the run state's mark
// (verify.Records).
func (r *runner) recordsGuard() verify.Records {
	return verify.NewRecords(r.repo, &r.st.RecordsMark, func() error { return r.st.Save(r.repo) })
}
