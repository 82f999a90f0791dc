//go:build !linux

package space

import (
	"context"
	"fmt"
	"io"
	"os/exec"
)

// Space is a task space; only Linux has them.
type Space struct{}

// Open fails: only Linux has task spaces.
func Open(Options) (*Space, error) { return nil, ErrUnsupported }

// Probe fails: only Linux has task spaces.
func Probe(string) error { return ErrUnsupported }

// HoldsMounts is false: only Linux has task spaces.
func HoldsMounts(string) bool { return false }

// Main is the helper; only Linux has one.
func Main(args []string, stderr io.Writer) int {
	fmt.Fprintln(stderr, "planx space: no helper on this platform")
	return 126
}

// Root is the work tree.
func (s *Space) Root() string { return "" }

// Wrap fails: only Linux has task spaces.
func (s *Space) Wrap(*exec.Cmd) error { return ErrUnsupported }

// Run fails: only Linux has task spaces.
func (s *Space) Run(context.Context, *exec.Cmd) error { return ErrUnsupported }

// SetupError is nil: nothing was set up.
func (s *Space) SetupError() error { return nil }

// Warnings is empty.
func (s *Space) Warnings() []string { return nil }

// Changes fails: only Linux has task spaces.
func (s *Space) Changes() (ChangeSet, error) { return ChangeSet{}, ErrUnsupported }

// GitChanges fails: only Linux has task spaces.
func (s *Space) GitChanges() (ChangeSet, error) { return ChangeSet{}, ErrUnsupported }

// GitUpper is empty.
func (s *Space) GitUpper() string { return "" }

// UpperOf is empty.
func (s *Space) UpperOf(string) (string, bool) { return "", false }

// Outside fails: only Linux has task spaces.
func (s *Space) Outside() ([]Write, error) { return nil, ErrUnsupported }

// Apply fails: only Linux has task spaces.
func (s *Space) Apply(string) error { return ErrUnsupported }

// ApplyHolding is Apply leaving held paths alone (Linux only).
func (s *Space) ApplyHolding(string, func(string) bool) ([]string, error) { return nil, ErrUnsupported }

// Close does nothing.
func (s *Space) Close() error { return nil }

// Layer fails: only Linux has task spaces.
func (s *Space) Layer() (ChangeSet, error) { return ChangeSet{}, ErrUnsupported }
