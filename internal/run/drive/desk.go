package drive

import (
	"time"

	"github.com/planx-dev/planx/internal/run/hall"
	"github.com/planx-dev/planx/planparse"
)

// desk is the run's hall.Desk: the parts of the engine record issues in
// the run's log, speak through its output, ask the person at the terminal
// and save the run's state and log through it.
type desk struct{ r *runner }

func (r *runner) desk() hall.Desk { return desk{r: r} }

func (d desk) Issue(id planparse.TaskID, msg, resolution string) {
	is := d.r.issue(id, msg)
	is.Resolution = resolution
	d.r.log.Issues = append(d.r.log.Issues, is)
}

func (d desk) Say(id planparse.TaskID, msg string) { d.r.out.Warn(id, msg) }

func (d desk) Ask(question string) bool {
	ask := d.r.o.Ask()
	return ask != nil && ask(question)
}

func (d desk) Save() error    { return d.r.books().save() }
func (d desk) Now() time.Time { return d.r.o.NowUTC() }
