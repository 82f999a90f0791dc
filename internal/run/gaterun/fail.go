package gaterun

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/testreport"
)

// gateFailure describes the first failed gate of results, or is nil: the
// tests its output names as failing (or the lines that look like a
// failure), where its whole output is, and how to run it again. root is
// the repository's root, which the paths shown are relative to.
func gateFailure(root string, results []gates.Result) error {
	failed := gates.Failed(results)
	if len(failed) == 0 {
		return nil
	}
	f := failed[0]
	what := fmt.Sprintf("gate %s failed (exit %d)", f.Name, f.ExitCode)
	if f.TimedOut {
		what = fmt.Sprintf("gate %s timed out after %s", f.Name, f.Duration.Round(time.Millisecond))
	}
	fails := outputFailures(f.OutputPath)
	if names := failingNames(fails.Tests); names != "" {
		what += ": " + names
	}
	if len(failed) > 1 {
		what += fmt.Sprintf("; %d more gate(s) failed", len(failed)-1)
	}
	var see []string
	if lines := notIn(fails.Lines, f.Tail); len(lines) > 0 {
		see = append(see, "lines of its output that look like a failure:")
		for _, l := range lines {
			see = append(see, "│ "+l)
		}
	}
	if f.OutputPath != "" {
		see = append(see, "whole output: "+shownPath(root, f.OutputPath))
	}
	see = append(see, "run it again at the repository root: "+f.Command)
	return &outcome.Failure{What: what, Tail: f.Tail, See: see}
}

// outputFailures reads a gate's whole output for what failed; nothing
// when it cannot be read.
func outputFailures(path string) testreport.Failures {
	if path == "" {
		return testreport.Failures{}
	}
	fh, err := os.Open(path)
	if err != nil {
		return testreport.Failures{}
	}
	defer fh.Close()
	fails, _ := testreport.ReadFailures(fh)
	return fails
}

// failingNames names the first failing tests: "TestSub (calc) fails",
// "TestA (calc), TestB (calc) and 3 more fail".
func failingNames(tests []testreport.Test) string {
	const shown = 3
	var names []string
	for i, t := range tests {
		if i == shown {
			break
		}
		names = append(names, testreport.Display(t))
	}
	switch {
	case len(names) == 0:
		return ""
	case len(tests) > shown:
		return fmt.Sprintf("%s and %d more fail", strings.Join(names, ", "), len(tests)-shown)
	case len(names) == 1:
		return names[0] + " fails"
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1] + " fail"
}

// notIn is lines unless the tail shown already holds every one of them.
func notIn(lines []string, tail string) []string {
	for _, l := range lines {
		if l != "…" && !strings.Contains(tail, l) {
			return lines
		}
	}
	return nil
}

// shownPath is p relative to the repository's root when it is inside it,
// under ~ when it is in the home directory, else as it is.
func shownPath(root, p string) string {
	if rel, err := filepath.Rel(root, p); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" && home != "/" {
		if rel, err := filepath.Rel(home, p); err == nil && filepath.IsLocal(rel) {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return p
}
