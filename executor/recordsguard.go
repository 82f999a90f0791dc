package executor

import (
	"github.com/planx-dev/planx/outcome"
	"github.com/planx-dev/planx/verify"
)

// An executor could forge planx's records (verify.Records): an agent, or a
// parallel wave's steps, runs under a mark. A parallel wave's tasks run at
// once under one mark (wave.records): planx records their gates once they
// have all ended, and a forgery, which cannot be told to one of them,
// fails all that ran.

// recordsGuard guards the records with the run state's mark
// (verify.Records).
func (r *runner) recordsGuard() verify.Records {
	return verify.NewRecords(r.repo, &r.st.RecordsMark, func() error { return r.st.Save(r.repo) })
}

// records settles the mark of a wave's executors (or one a stopped wave
// left) and, when run is true, sets a new one for the executors about to
// run. A forgery fails every task of the wave that has not failed: the
// executors ran at once, so which one wrote cannot be told.
func (wv *wave) records(run bool) error {
	r := wv.r
	what, err := r.recordsGuard().Settle()
	if err != nil {
		return err
	}
	if what != "" {
		for _, it := range wv.its {
			if it.Fail == nil && it.Err == nil {
				it.Fail = &outcome.Failure{What: "a task of its parallel wave (they ran at once: which one cannot be told) " + what}
			}
		}
	}
	if !run {
		return nil
	}
	m, err := r.repo.Records().Mark()
	if err != nil {
		return err
	}
	r.st.RecordsMark = m
	return r.st.Save(r.repo)
}
