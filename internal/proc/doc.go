// Package proc runs the child processes planx starts: plan steps, quality
// gates and agent commands. Every child runs in its own process group so
// that a timeout, a Ctrl-C or a finished step can stop the whole tree it
// spawned (pipelines, background jobs), and its combined output goes to a
// file rather than to memory, because gate and agent output can be huge and
// must survive for the execution log.
//
// On Linux planx is also the child subreaper of what it starts
// (BecomeSubreaper): a descendant that leaves its process group with setsid
// is reparented to planx when orphaned, and KillDetached finds and kills it.
package proc
