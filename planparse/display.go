package planparse

// DisplayID names a task for a person: the plan's own label first, as its
// author wrote it, with planx's canonical ID beside it ("1.1 (T002)"), or
// the ID alone when the plan calls the task by it. Every place that shows
// a task to a person uses it, so a Kiro or task-master plan reads in its
// own words everywhere.
func DisplayID(id TaskID, label string) string {
	if label == "" || label == string(id) {
		return string(id)
	}
	return label + " (" + string(id) + ")"
}

// DisplayID is DisplayID(t.ID, t.Label).
func (t *Task) DisplayID() string { return DisplayID(t.ID, t.Label) }

// OwnLabel is the task's label when the plan calls it otherwise than by
// its ID (1.2 for T003), "" when it does not.
func (t *Task) OwnLabel() string {
	if t.Label == string(t.ID) {
		return ""
	}
	return t.Label
}

// Kind is how a task is executed: by its shell steps, by an agent, by a
// person, or by the gates alone (a checkpoint). A plan or configuration
// may name any string; an unknown one fails the task when it runs.
type Kind string

// The kinds planx knows.
const (
	KindShell  Kind = "shell"
	KindAgent  Kind = "agent"
	KindManual Kind = "manual"
	KindGates  Kind = "gates"
)
