package record

import (
	"strings"
	"testing"
)

// benchTaskMessage is a task commit message as the executor writes it: a
// subject, a description, a folded commit the executor made (indented so it
// is not read as trailers), then the trailer block with two gates.
const benchTaskMessage = `T042: Wire the config loader into main and cover the flag parsing

Task T042 (2.3) of plan memory-bank/plan/2026-11-21_config-dashboard.md, executed by agent in 2 steps; 2 gates passed.
The commit holds the 7 files the task changed, the plan's tick and the execution log.

Folded commit made by the executor:

    wip: loader

    Refs: not a trailer of this commit

Refs: memory-bank/plan/2026-11-21_config-dashboard.md
Planx-Run: 20261121-101500-a1b2c3
Planx-Task: T042
Planx-Task-Hash: sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
Planx-Executor: agent
Planx-Gate: test=pass 12873ms
Planx-Gate: vet=pass 2211ms
`

func BenchmarkParseTrailers(b *testing.B) {
	if got := ParseTrailers(benchTaskMessage); len(got) != 7 || got[6].Value != "vet=pass 2211ms" {
		b.Fatalf("ParseTrailers = %+v", got)
	}
	b.SetBytes(int64(len(benchTaskMessage)))
	b.ReportAllocs()
	for b.Loop() {
		ParseTrailers(benchTaskMessage)
	}
}

// BenchmarkParseTrailersNone is the common case of `planx log` and `verify`
// reading history: a long commit message of someone else's with no trailer
// block, which the parser must scan to the end to rule out.
func BenchmarkParseTrailersNone(b *testing.B) {
	msg := "Refactor the widget cache\n\n" + strings.Repeat("This paragraph explains the change at some length, as good commit messages do.\n", 20)
	if got := ParseTrailers(msg); len(got) != 0 {
		b.Fatalf("ParseTrailers = %+v", got)
	}
	b.SetBytes(int64(len(msg)))
	b.ReportAllocs()
	for b.Loop() {
		ParseTrailers(msg)
	}
}
