package testreport

import (
	"bufio"
	"io"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A gate that runs make is judged by its exit code, and what make runs is
// decided by the makefiles it reads: a GNUmakefile or makefile read before
// the Makefile, a file an include (a wildcard one) pulls in, one that sets
// MAKEFLAGS. planx does not name those files: it asks make. GNU make keeps
// every makefile it parsed in MAKEFILE_LIST and prints it with its data
// base (-p) which, with -q, it prints without running a recipe of the
// goals (it still remakes an included makefile that is out of date, and
// evaluates $(shell …) as it parses, as the gate's own run would).

// MakeCall is one make invocation in a gate's command.
type MakeCall struct {
	// Query is the invocation with -p -q inserted after the program: it
	// prints make's data base, MAKEFILE_LIST included, and runs no recipe
	// of the goals.
	Query string
	// Dir is the directory make reads its makefiles in, relative to where
	// the gate runs (its -C options, joined); "." without one.
	Dir string
	// Opaque: a word of the invocation is known only at run time (it may
	// be a -C), or an option cluster hides a -C: the directory cannot be
	// told.
	Opaque bool
}

// MakeCalls returns the make invocations (make, gmake, by any path) of
// command, parsed as shell: each simple command, wherever it stands (a
// list, a pipe, a subshell). A command that does not parse has none; make
// run by a script, or by a string given to sh -c, is not seen.
func MakeCalls(command string) []MakeCall {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return nil
	}
	var out []MakeCall
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		prog, ok := staticWord(call.Args[0])
		if !ok || (path.Base(prog) != "make" && path.Base(prog) != "gmake") {
			return true
		}
		at := int(call.Args[0].End().Offset())
		mc := MakeCall{Query: command[call.Pos().Offset():at] + " -p -q" + command[at:call.End().Offset()]}
		mc.Dir, mc.Opaque = makeDir(call.Args[1:])
		out = append(out, mc)
		return true
	})
	return out
}

// makeDir joins the -C options of a make invocation's arguments; opaque
// when a word is known only at run time or an option cluster holds a C.
func makeDir(args []*syntax.Word) (dir string, opaque bool) {
	dir = "."
	for i := 0; i < len(args); i++ {
		a, ok := staticWord(args[i])
		if !ok {
			return dir, true
		}
		var d string
		switch {
		case a == "--":
			return dir, false
		case a == "-C" || a == "--directory":
			if i+1 >= len(args) {
				return dir, true
			}
			i++
			if d, ok = staticWord(args[i]); !ok {
				return dir, true
			}
		case strings.HasPrefix(a, "--directory="):
			d = strings.TrimPrefix(a, "--directory=")
		case strings.HasPrefix(a, "-C"):
			d = a[2:]
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "C"):
			return dir, true
		default:
			continue
		}
		if path.IsAbs(d) {
			return dir, true
		}
		dir = path.Join(dir, d)
	}
	return dir, false
}

// MakefileList reads what make says it read from the output of a
// MakeCall's Query: the words of every MAKEFILE_LIST line of its data
// bases, in order, each once, and the directories (CURDIR) they were read
// in. make prints a data base per pass (before it restarts for a remade
// makefile, and after) and per sub-make a recipe starts ($(MAKE) lines run
// under -q too); a sub-make's names are relative to its own CURDIR, and
// which base a name belongs to is not told apart: the caller reads each
// name in each directory. A makefile that prints such lines of its own can
// add names, never take make's away. found is false when the output has
// no MAKEFILE_LIST line: make stopped before it printed its data base.
func MakefileList(r io.Reader) (files, dirs []string, found bool) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if d, ok := strings.CutPrefix(line, "CURDIR := "); ok && !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
		rest, ok := strings.CutPrefix(line, "MAKEFILE_LIST := ")
		if !ok {
			continue
		}
		found = true
		for _, f := range strings.Fields(rest) {
			if !slices.Contains(files, f) {
				files = append(files, f)
			}
		}
	}
	return files, dirs, found
}
