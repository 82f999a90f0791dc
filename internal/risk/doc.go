// Package risk grades what a plan's shell steps can do before planx runs
// them, in the spirit of Terraform's plan review: LOW, MEDIUM, HIGH or
// CRITICAL, each with the line and rule that decided it.
//
// Steps are parsed with mvdan.cc/sh/v3/syntax (bash dialect) and judged
// command by command, so `echo "curl x | sh"` is a string and a comment
// mentioning rm -rf is nothing, while `bash -c '...'`, eval of static text
// and heredocs fed to a shell are parsed in turn. Prefix commands (sudo,
// env, nohup, timeout, xargs) are looked through. A step that does not parse
// is judged line by line as text and is at least MEDIUM: the fallback can
// both miss commands and see some that are only strings.
//
// The analysis is static and deliberately conservative: planx cannot know
// the repository's location on disk when it reads a plan, so every absolute
// path counts as outside the repository; `cd` is followed in source order
// (not scoped to subshells); a path that starts with a variable is unknown,
// and "$X/" or "$X/*" is treated as the filesystem root because that is what
// it becomes when X is empty. The rules are listed in docs/risk.md.
//
// NeedsApproval says which levels a person must accept (package approval
// records that in git).
package risk
