// Package hall is the hallway the engine's parts report through: the
// run's log, its output, its state file and the person at the terminal,
// behind one small interface (Desk) that the run hands down to each part,
// instead of a callback per thing a part may need to say.
//
// A wave's tasks share the run's desk through InWave: what they say goes
// under the wave's lock, nobody is asked anything, and the wave saves for
// all of them at once.
package hall
