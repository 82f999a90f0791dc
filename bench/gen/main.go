// Command gen writes the inputs of the planx benchmarks in bench/: a
// repository's files, a plan whose tasks each change K files together with
// the same steps as scripts for the naive loop, and a git fast-import stream
// of many unrelated commits. Everything it writes is deterministic: the same
// flags give the same bytes.
//
//	gen -files 80000 -dir DIR                  # (or: gen repo ...) the files of a repository
//	gen plan -files N -changes K -tasks 5 -plan PLAN.md -steps DIR -naive NAIVE.sh
//	gen history -commits 100000 > stream       # for git fast-import
//
// File i of a repository lives at aNN/bN/cN/fNNNNNN.txt (100 files per
// directory, 10 directories per level), about 5 KB of text lines.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	args := os.Args[1:]
	mode := "repo"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		mode, args = args[0], args[1:]
	}
	var err error
	switch mode {
	case "repo":
		err = repoCmd(args)
	case "plan":
		err = planCmd(args)
	case "history":
		err = historyCmd(args)
	default:
		err = fmt.Errorf("unknown mode %q: want repo, plan or history", mode)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// Path is the repository-relative path of file i.
func Path(i int) string {
	return fmt.Sprintf("a%02d/b%d/c%d/f%06d.txt", i/10000, i/1000%10, i/100%10, i)
}

// shellPath is Path as a bash printf format and arguments, for steps.
const shellPath = `printf -v p "a%02d/b%d/c%d/f%06d.txt" $((i/10000)) $((i/1000%10)) $((i/100%10)) "$i"`

var words = strings.Fields(`alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi
omicron pi rho sigma tau upsilon phi chi psi omega func return struct import package const var
type interface map range for if else switch case default break continue defer go select chan
error nil true false string int byte rune len cap append copy make new panic recover`)

// rng is a xorshift64* generator: fast, deterministic, good enough for text.
type rng uint64

func (r *rng) next() uint64 {
	x := uint64(*r)
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	*r = rng(x)
	return x * 2685821657736338717
}

// content is file i's text: a header naming it, then lines of words up to
// about size bytes.
func content(i, size int) []byte {
	r := rng(uint64(i)*0x9E3779B97F4A7C15 + 1)
	var b strings.Builder
	b.Grow(size + 80)
	fmt.Fprintf(&b, "// %s: generated benchmark file %d\n", Path(i), i)
	for b.Len() < size {
		line := 0
		for line < 60 {
			w := words[r.next()%uint64(len(words))]
			b.WriteString(w)
			b.WriteByte(' ')
			line += len(w) + 1
		}
		fmt.Fprintf(&b, "%d\n", r.next()%100000)
	}
	return []byte(b.String())
}

func repoCmd(args []string) error {
	fs := flag.NewFlagSet("repo", flag.ContinueOnError)
	files := fs.Int("files", 200, "number of files")
	dir := fs.String("dir", "", "directory to write into (created)")
	size := fs.Int("size", 5000, "approximate bytes per file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" || *files < 1 {
		return fmt.Errorf("repo: -dir and a positive -files are required")
	}
	made := map[string]bool{}
	for i := 0; i < *files; i++ {
		p := filepath.Join(*dir, filepath.FromSlash(Path(i)))
		if d := filepath.Dir(p); !made[d] {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return err
			}
			made[d] = true
		}
		if err := os.WriteFile(p, content(i, *size), 0o644); err != nil {
			return err
		}
	}
	readme := fmt.Sprintf("# bench repository\n\n%d generated files, 100 per directory.\n", *files)
	return os.WriteFile(filepath.Join(*dir, "README.md"), []byte(readme), 0o644)
}

// step is task t's (1-based) shell code: append a line to k files spread
// over the repository by stride, starting at an offset that differs per task.
func step(t, k, files int) string {
	stride := max(files/k, 1)
	return fmt.Sprintf("for ((j = 0; j < %d; j++)); do\n  i=$(( (j * %d + %d) %% %d ))\n  %s\n  echo \"T%03d changed this file\" >> \"$p\"\ndone\n",
		k, stride, t*37, files, shellPath, t)
}

func planCmd(args []string) error {
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	files := fs.Int("files", 200, "number of files in the repository")
	changes := fs.Int("changes", 1, "files each task changes (at most -files)")
	tasks := fs.Int("tasks", 5, "number of tasks")
	planOut := fs.String("plan", "", "plan file to write")
	stepsDir := fs.String("steps", "", "directory for the naive loop's step scripts (T001.sh, ...)")
	naiveOut := fs.String("naive", "", "naive loop script to write")
	floorOut := fs.String("floor", "", "floor script to write (optional): a rollback commit, then per task the step and git add -A + write-tree + commit-tree + update-ref")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *planOut == "" || *stepsDir == "" || *naiveOut == "" || *tasks < 1 || *changes < 1 || *files < 1 {
		return fmt.Errorf("plan: -plan, -steps, -naive and positive -files, -changes, -tasks are required")
	}
	k := min(*changes, *files)
	if err := os.MkdirAll(*stepsDir, 0o755); err != nil {
		return err
	}
	var plan, naive strings.Builder
	fmt.Fprintf(&plan, "---\ntitle: Benchmark %d files x %d changes\ntopic: bench\n---\n\n# Benchmark\n\n", *files, k)
	naive.WriteString("#!/usr/bin/env bash\n# The naive loop: each task's step, then git add -A && git commit.\nset -euo pipefail\n")
	// The floor: the least git work a tool needs for planx's contract (a
	// rollback commit first, one commit per task, the branch moved with
	// compare-and-swap) through the git CLI with one work-tree scan per
	// commit, and nothing else: no log, no ticks, no state.
	var floor strings.Builder
	floor.WriteString("#!/usr/bin/env bash\n# The floor: a rollback commit, then each task's step and add -A, write-tree, commit-tree, update-ref.\nset -euo pipefail\n")
	floor.WriteString("h=$(git rev-parse HEAD)\ncommit() {\n  git add -A\n  local t c\n  t=$(git write-tree)\n  c=$(printf '%s\\n' \"$1\" | git commit-tree \"$t\" -p \"$h\")\n  git update-ref -m \"commit: $1\" HEAD \"$c\" \"$h\"\n  h=$c\n}\ncommit \"rollback: before executing plan bench\"\n")
	for t := 1; t <= *tasks; t++ {
		title := fmt.Sprintf("Change %d file(s), batch %d", k, t)
		code := step(t, k, *files)
		fmt.Fprintf(&plan, "### [ ] T%03d: %s\n\n```sh run\n%s```\n\n", t, title, code)
		script := filepath.Join(*stepsDir, fmt.Sprintf("T%03d.sh", t))
		if err := os.WriteFile(script, []byte(code), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(&naive, "bash -e -o pipefail %q\ngit add -A && git commit -q -m \"T%03d: %s\"\n", script, t, title)
		fmt.Fprintf(&floor, "bash -e -o pipefail %q\ncommit \"T%03d: %s\"\n", script, t, title)
	}
	if *floorOut != "" {
		if err := os.WriteFile(*floorOut, []byte(floor.String()), 0o755); err != nil {
			return err
		}
	}
	if err := os.WriteFile(*planOut, []byte(plan.String()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(*naiveOut, []byte(naive.String()), 0o755)
}

// historyCmd writes a fast-import stream of a linear history on
// refs/heads/main: commit n changes one small file, so the stream (and the
// pack) stays small however many commits there are.
func historyCmd(args []string) error {
	fs := flag.NewFlagSet("history", flag.ContinueOnError)
	commits := fs.Int("commits", 100000, "number of commits")
	ref := fs.String("ref", "refs/heads/main", "branch to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	if err := history(w, *commits, *ref); err != nil {
		return err
	}
	return w.Flush()
}

func history(w io.Writer, commits int, ref string) error {
	const when = 1767225600 // 2026-01-01T00:00:00Z
	for n := 1; n <= commits; n++ {
		data := fmt.Sprintf("line %d\n", n)
		msg := fmt.Sprintf("unrelated change %d\n\nNot a planx commit: history for the scaling checks.\n", n)
		if _, err := fmt.Fprintf(w, "commit %s\nmark :%d\nauthor Bench <bench@planx.invalid> %d +0000\ncommitter Bench <bench@planx.invalid> %d +0000\ndata %d\n%s",
			ref, n, when+n, when+n, len(msg), msg); err != nil {
			return err
		}
		if n > 1 {
			if _, err := fmt.Fprintf(w, "from :%d\n", n-1); err != nil {
				return err
			}
		}
		if _, err := fmt.Fprintf(w, "M 644 inline history/f%d.txt\ndata %d\n%s\n", n%100, len(data), data); err != nil {
			return err
		}
	}
	return nil
}
