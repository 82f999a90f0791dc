package command

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"
)

// placeholder until the executor lands in this session.
func newRunCmd(stdio *IO) *cli.Command {
	return &cli.Command{Name: "run", Usage: "run a plan", Action: func(context.Context, *cli.Command) error {
		return fmt.Errorf("run: not built yet")
	}}
}

func newDemoCmd(stdio *IO) *cli.Command {
	return &cli.Command{Name: "demo", Usage: "demo", Action: func(context.Context, *cli.Command) error {
		return fmt.Errorf("demo: not built yet")
	}}
}

func newValidateCmd(stdio *IO) *cli.Command {
	return &cli.Command{Name: "validate", Usage: "validate", Action: func(context.Context, *cli.Command) error {
		return fmt.Errorf("validate: not built yet")
	}}
}
