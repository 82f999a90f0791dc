package executor

import (
	"github.com/planx-dev/planx/outcome"
)

// An executor could forge planx's records (verify.Records): an agent, or a
// parallel wave's steps, runs under a mark. A parallel wave's tasks run at
// once under one mark (wave.records): planx records their gates once they
// have all ended, and a forgery, which cannot be told to one of them,
// fails all that ran.

// records settles the mark of a wave's executors (or one a stopped wave
// left) and, when run is true, sets a new one for the executors about to
// run. A forgery fails every task of the wave that has not failed: the
// executors ran at once, so which one wrote cannot be told.
func (wv *wave) records(run bool) error {
	r := wv.r
	what, err := r.checks().Records.Settle()
	if err != nil {
		return err
	}
	if what != "" {
		for _, it := range wv.its {
			if it.fail == nil && it.err == nil {
				it.fail = &outcome.Failure{What: "a task of its parallel wave (they ran at once: which one cannot be told) " + what}
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
