// Command planx executes markdown implementation plans task by task,
// with one verified, gated git commit per task.
package main

import (
	"context"
	"os"

	"github.com/planx-dev/planx/internal/command"
)

// Set by release builds: -ldflags "-X main.version=v1.2.3 -X main.commit=abc123".
// Written only by the linker; empty means "ask the module build info".
var version, commit string

func main() {
	os.Exit(command.MainWithBuild(context.Background(), os.Args, command.StdIO(), command.Build{Version: version, Commit: commit}))
}
