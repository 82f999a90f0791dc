package review

import (
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/record"
	"github.com/planx-dev/planx/planparse"
)

// textAccepted follows the commits that accepted task id's new text in
// plan without running it again (planx run --accept-text), from the hash
// the task was committed with: it returns the last of them when the text
// they arrived at is now's, "" when the text changed past them (drift).
func (c *checker) textAccepted(plan, id, from string, now *planparse.Task) (gitops.SHA, error) {
	if c.accepts == nil {
		cs, err := c.repo.History().Mentioning(c.ctx, c.tip, record.TrailerTextAccepted+": ")
		if err != nil {
			return "", err
		}
		c.accepts = cs
	}
	h, last := from, gitops.SHA("")
	for i := len(c.accepts) - 1; i >= 0; i-- { // oldest first
		a := c.accepts[i]
		ts := record.ParseTrailers(a.Message)
		if record.ValueOf(ts, record.TrailerRefs) != plan || record.ValueOf(ts, record.TrailerTask) != id {
			continue
		}
		old, next, ok := strings.Cut(record.ValueOf(ts, record.TrailerTextAccepted), " -> ")
		if ok && old == h {
			h, last = next, a.SHA
		}
	}
	if last == "" || !now.HashMatches(h) {
		return "", nil
	}
	return last, nil
}

// acceptedText is textAccepted for task commit t whose text differs from
// now's; "" when it does not differ or no acceptance covers it.
func (c *checker) acceptedText(plan string, t *TaskCommit, now *planparse.Task) (gitops.SHA, error) {
	if t.TaskHash == "" || now.HashMatches(t.TaskHash) {
		return "", nil
	}
	return c.textAccepted(plan, t.ID, t.TaskHash, now)
}
