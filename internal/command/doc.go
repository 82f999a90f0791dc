// Package command holds planx's command-line interface: one file per
// subcommand. Each binds its flags to an options struct (urfave/cli
// Destination, so a misspelt field does not compile) and hands the parsed
// options to a plain run function through dispatch; tests call the run
// functions directly, or read what a command line parses to through
// globalOptions.parsed without running anything.
//
// Conventions a shell user relies on live here: usage errors (unknown
// command or flag, wrong arguments) are one line on stderr with a
// suggestion and a hint, exit 2; -C DIR is global, like git's;
// every command's help has a description and examples, from which
// docs/cli.md and the man page docs/planx.1 are generated (a test checks they are current).
// Exit codes are mapped in one place.
package command
