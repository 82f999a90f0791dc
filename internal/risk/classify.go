package risk

import (
	"errors"
	"path"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// maxDepth bounds how deep `bash -c 'bash -c ...'` and eval are followed.
const maxDepth = 5

// maxCommands bounds the commands judged per Classify: `find -exec` is
// judged once per start path, so nested finds would multiply.
const maxCommands = 20000

// Classify returns the level of a bash script (a step's code) and why.
// Findings are ordered most severe first; LOW comes with no findings.
func Classify(script string) (Level, []Finding) { return Repo{}.Classify(script) }

// Repo is what an assessment knows of the repository the plan runs in.
type Repo struct {
	// Script returns the content of the repository's file at the clean
	// relative path p, a script a step or gate runs, read so that what
	// it does is judged too; ok false when there is none to read. nil:
	// scripts are judged by their names alone.
	Script func(p string) (content string, ok bool)
	// Ignored reports whether deleting the clean relative path p takes
	// files git ignores (p is one, or holds one): bytes no commit holds,
	// which git cannot give back. nil: nothing is known.
	Ignored func(p string) bool
	// Tracked reports whether deleting the clean relative path p (a glob
	// maybe) takes files git tracks: a task's own deletion of a file is
	// work, but a tree of them deleted at once, or any deleted by a gate,
	// is not what a gate or an ordinary step does. nil: nothing is known.
	Tracked func(p string) bool
}

// Classify is the package's Classify, knowing the repository.
func (rp Repo) Classify(script string) (Level, []Finding) { return rp.classify(script, false) }

// classify judges script, a gate's command when gate is set: a gate
// checks the tree; deleting a file git tracks is never its job.
func (rp Repo) classify(script string, gate bool) (Level, []Finding) {
	st := &shared{downloaded: map[string]bool{}, ignored: rp.Ignored, tracked: rp.Tracked, gate: gate, readScript: rp.Script}
	a := &analyzer{shared: st, src: script}
	a.script(script, 0)
	return finish(st.findings)
}

// shared is what every analyzer of one Classify call sees: the findings, and
// facts that combine across statements.
type shared struct {
	findings   []Finding
	resetHard  bool            // a `git reset --hard` was seen
	cleanAll   bool            // a `git clean -fdx`-like was seen
	downloaded map[string]bool // files a downloader wrote: running them is running downloaded code
	commands   int             // judged so far, see maxCommands
	ignored    func(string) bool
	tracked    func(string) bool
	gate       bool // the script is a gate's command
	readScript func(p string) (string, bool)
}

// analyzer reads one script: the step itself, or a script nested in it
// (`bash -c '...'`, eval, a heredoc fed to bash).
type analyzer struct {
	*shared
	src     string // the text positions refer to
	lineOff int    // added to the parser's line numbers to get the step's
	depth   int
	cwd     string // where relative paths resolve: "" is the repository root (see where)
	seen    map[*syntax.BinaryCmd]bool
	// via is the repository's script file this analyzer reads, run by
	// the command at the step's line viaLine ("" for the step itself).
	via     string
	viaLine int
}

// site is the command being judged: its line and its text for the finding.
type site struct {
	line      int
	text      string
	stmt      *syntax.Stmt // nil in the textual fallback
	fromInput bool         // operands come from stdin (xargs) or find
}

func (a *analyzer) report(l Level, rule string, s site, what string) {
	if a.via != "" && uncertain(rule, what) {
		// A script file is written for many callers: its arguments and
		// variables are its inputs. Read for what it does for certain;
		// unread, it was judged by its name, and is no worse for it.
		return
	}
	if a.via != "" {
		a.findings = append(a.findings, Finding{Level: l, Line: a.viaLine, Rule: rule, Detail: viaDetail(a.via, s.line, what+": "+s.text)})
		return
	}
	a.findings = append(a.findings, Finding{Level: l, Line: s.line, Rule: rule, Detail: what + ": " + s.text})
}

// script parses src and walks it; a script bash would refuse is judged line
// by line as text instead, and is at least MEDIUM because nothing about it is
// certain.
func (a *analyzer) script(src string, lineOff int) {
	a.src, a.lineOff = src, lineOff
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		a.fallback(src, err)
		return
	}
	a.seen = map[*syntax.BinaryCmd]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			a.stmt(n)
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				a.pipeline(n)
			}
		case *syntax.FuncDecl:
			a.forkBomb(n)
		case *syntax.DeclClause:
			for _, as := range n.Args {
				a.assign(as, a.site(n, n))
			}
		}
		return true
	})
}

// site describes node n for a finding; text is taken from span.
func (a *analyzer) site(n, span syntax.Node) site {
	s := site{line: a.lineOff + int(n.Pos().Line())}
	start, end := int(span.Pos().Offset()), int(span.End().Offset())
	if start >= 0 && end <= len(a.src) && start < end {
		s.text = excerpt(a.src[start:end])
	}
	return s
}

// excerpt is the first line of a command, squeezed and cut to fit a table.
func excerpt(s string) string {
	first, _, more := strings.Cut(strings.TrimSpace(s), "\n")
	first = strings.Join(strings.Fields(first), " ")
	if utf8.RuneCountInString(first) > 60 {
		first = string([]rune(first)[:59]) + "…"
	} else if more {
		first += " …"
	}
	return first
}

func (a *analyzer) stmt(st *syntax.Stmt) {
	if st.Background || st.Coprocess || st.Disown {
		a.report(MEDIUM, "background", a.site(st, st), "starts a background process that outlives the step")
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	fetches := ok && len(call.Args) > 0 && isDownload(words(call.Args))
	for _, r := range st.Redirs {
		if !writeOps[r.Op] || r.Word == nil {
			continue
		}
		t := words([]*syntax.Word{r.Word})[0]
		a.write(a.site(r, st), t, "redirects output")
		if fetches {
			a.downloaded[path.Clean(t.s)] = true
		}
	}
	if !ok {
		if _, ok := st.Cmd.(*syntax.CoprocClause); ok {
			a.report(MEDIUM, "background", a.site(st, st), "starts a coprocess")
		}
		return
	}
	s := a.site(call, call)
	s.stmt = st
	for _, as := range call.Assigns {
		a.assign(as, s)
	}
	if len(call.Args) > 0 {
		a.command(s, words(call.Args))
	}
}

// envVars change what every later command runs or loads.
var envVars = map[string]bool{"PATH": true, "LD_PRELOAD": true, "LD_LIBRARY_PATH": true,
	"DYLD_INSERT_LIBRARIES": true, "DYLD_LIBRARY_PATH": true, "BASH_ENV": true, "ENV": true,
	"PROMPT_COMMAND": true, "GIT_DIR": true, "GIT_WORK_TREE": true, "IFS": true}

func (a *analyzer) assign(as *syntax.Assign, s site) {
	if as.Name != nil && envVars[as.Name.Value] {
		a.report(MEDIUM, "env-change", s, "changes "+as.Name.Value+" for the commands that follow")
	}
}

// writeOps are the redirections that create or change their target.
var writeOps = map[syntax.RedirOperator]bool{syntax.RdrOut: true, syntax.AppOut: true,
	syntax.RdrInOut: true, syntax.RdrClob: true, syntax.AppClob: true, syntax.RdrAll: true,
	syntax.AppAll: true, syntax.RdrAllClob: true, syntax.AppAllClob: true}

// isDownload reports a command line that runs a downloader.
func isDownload(args []arg) bool {
	in := unwrap(args)
	return len(in.args) > 0 && downloaders[cmdName(in.args[0].s)]
}

// pipeline finds a downloader feeding an interpreter that reads its program
// from stdin: `curl -fsSL URL | sh`.
func (a *analyzer) pipeline(b *syntax.BinaryCmd) {
	if a.seen[b] {
		return
	}
	var stages [][]arg
	var flatten func(st *syntax.Stmt)
	flatten = func(st *syntax.Stmt) {
		if bc, ok := st.Cmd.(*syntax.BinaryCmd); ok && (bc.Op == syntax.Pipe || bc.Op == syntax.PipeAll) {
			a.seen[bc] = true
			flatten(bc.X)
			flatten(bc.Y)
			return
		}
		if c, ok := st.Cmd.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			stages = append(stages, words(c.Args))
		} else {
			stages = append(stages, nil)
		}
	}
	a.seen[b] = true
	flatten(b.X)
	flatten(b.Y)
	a.pipeStages(a.site(b, b), stages)
}

func (a *analyzer) pipeStages(s site, stages [][]arg) {
	fetched, unread := false, false
	for i, st := range stages {
		in := unwrap(st)
		if len(in.args) == 0 {
			unread = unread || i > 0 || st == nil
			continue
		}
		name := cmdName(in.args[0].s)
		switch {
		case downloaders[name]:
			fetched = true
		case fetched && interpreterReadsStdin(name, in.args):
			a.report(CRITICAL, "pipe-to-interpreter", s, "pipes downloaded content into "+name)
			return
		case i > 0 && unread && interpreterReadsStdin(name, in.args):
			// `echo cm0gLXJmIH4K | base64 -d | bash`: the program is made
			// while the step runs, so nobody reviewing the plan can read it.
			a.report(HIGH, "pipe-to-interpreter", s, "pipes generated or decoded text into "+name+" as a program")
			return
		}
		unread = unread || !readsFileVerbatim(name, in.args)
	}
}

// forkBomb finds a function that calls itself in the background or in a
// pipe: `:(){ :|:& };:`.
func (a *analyzer) forkBomb(f *syntax.FuncDecl) {
	if f.Name == nil {
		return
	}
	name := f.Name.Value
	bomb := false
	syntax.Walk(f.Body, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok {
			return !bomb
		}
		if bc, ok := st.Cmd.(*syntax.BinaryCmd); ok && bc.Op == syntax.Pipe && callsName(bc.X, name) && callsName(bc.Y, name) {
			bomb = true
		}
		if st.Background && callsName(st, name) {
			bomb = true
		}
		return !bomb
	})
	if bomb {
		a.report(CRITICAL, "fork-bomb", a.site(f, f), "function "+name+" spawns copies of itself without end")
	}
}

func callsName(st *syntax.Stmt, name string) bool {
	found := false
	syntax.Walk(st, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 && c.Args[0].Lit() == name {
			found = true
		}
		return !found
	})
	return found
}

// nested judges a script given as a string (`bash -c '...'`, eval), with
// line numbers counted from where the string starts.
func (a *analyzer) nested(s site, src string, line int) {
	if a.depth >= maxDepth {
		a.report(HIGH, "dynamic-code", s, "nests scripts too deep to follow")
		return
	}
	n := &analyzer{shared: a.shared, depth: a.depth + 1, cwd: a.cwd, via: a.via, viaLine: a.viaLine}
	n.script(src, line-1)
}

// parseErrorLine is the 1-based line a parse error points at, or 1.
func parseErrorLine(err error) int {
	var pe syntax.ParseError
	var le syntax.LangError
	switch {
	case errors.As(err, &pe):
		return int(pe.Pos.Line())
	case errors.As(err, &le):
		return int(le.Pos.Line())
	}
	return 1
}

// readsFileVerbatim reports a pipe stage whose output is the content of
// files named statically (`cat setup.sh`): piped into a shell, that is the
// same as running the file, which the plan shows.
func readsFileVerbatim(name string, args []arg) bool {
	if name != "cat" || len(args) < 2 {
		return false
	}
	for _, x := range args[1:] {
		if x.dyn || strings.HasPrefix(x.s, "-") {
			return false
		}
	}
	return true
}
