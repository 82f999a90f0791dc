package outcome

import "errors"

// Failure is a task that failed: a step, the agent, a check of verify or
// the judge, a gate or a commit hook. It is an error; errors.As finds it
// through wrapping.
type Failure struct {
	What string // what failed, one line; the agent's retry prompt quotes it
	Tail string // the end of the output that shows it
	// GaveUp: the agent said it cannot do the task, so no retry.
	GaveUp bool
	// Budget: the agent went over the run's or the task's budget, so no
	// retry either (it would spend more); the run stops for a person.
	Budget bool
	// Hint is advice for the person ("mark it Checkpoint: yes"), shown with
	// the failure but never put into an agent's retry prompt: it would
	// invite the agent to reclassify its own task.
	Hint string
	// See is where to look next (a gate's whole output, the command that
	// runs it again), shown below the output but not put into the log or
	// an agent's retry prompt.
	See []string
}

func (f *Failure) Error() string { return f.What }

// ForUser is the failure as the person reads it: what, then the advice.
func (f *Failure) ForUser() string {
	if f.Hint == "" {
		return f.What
	}
	return f.What + " (" + f.Hint + ")"
}

// As returns the Failure err wraps, or nil.
func As(err error) *Failure {
	var f *Failure
	if errors.As(err, &f) {
		return f
	}
	return nil
}
