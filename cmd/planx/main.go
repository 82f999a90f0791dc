// Command planx executes markdown implementation plans task by task,
// with one verified, gated git commit per task.
package main

import (
	"context"
	"os"

	"github.com/planx-dev/planx/internal/command"
)

func main() {
	os.Exit(command.Main(context.Background(), os.Args, command.StdIO()))
}
