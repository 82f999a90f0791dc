// Package command holds planx's command-line interface: one file per
// subcommand, each filling an options struct and calling a plain function
// that tests call too. Exit codes are mapped in one place, exit.go.
package command
