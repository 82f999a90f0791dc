package risk

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// interpreter judges a shell or language interpreter: `bash -c SCRIPT` is
// parsed, a heredoc fed to a shell too, downloaded programs are CRITICAL.
func (a *analyzer) interpreter(s site, name string, args []arg) {
	for _, x := range args[1:] {
		if runsDownload(x) {
			a.report(CRITICAL, "run-downloaded", s, name+" runs downloaded code")
			return
		}
	}
	if i := indexOf(args, "-m"); i > 0 && i+1 < len(args) && !isShell(name) { // python -m pip
		a.command(s, args[i+1:])
		return
	}
	f := parseFlags(args[1:], "o")
	if isShell(name) && f.has("c", "--command") {
		if len(f.operands) > 0 {
			a.code(s, f.operands[0], name+" -c")
		}
		return
	}
	if !isShell(name) && givesCode(name, f) {
		// python3 -c, perl -e, node -e: a program in another language, which
		// this package does not read; it can do anything a shell can.
		a.report(HIGH, "interpreter-code", s, name+" runs code given on its command line, which planx cannot judge")
		return
	}
	if len(f.operands) > 0 && a.downloaded[path.Clean(f.operands[0].s)] {
		a.report(CRITICAL, "run-downloaded", s, name+" runs a file it downloaded")
	} else if isShell(name) && len(f.operands) > 0 {
		followScript(a, s, f.operands[0])
	}
	if !isShell(name) || !interpreterReadsStdin(name, args) || s.stmt == nil {
		return
	}
	for _, r := range s.stmt.Redirs {
		if r.Hdoc != nil {
			body := words([]*syntax.Word{r.Hdoc})[0]
			a.nested(s, body.s, a.lineOff+int(r.Hdoc.Pos().Line()))
		} else if r.Op == syntax.WordHdoc && r.Word != nil {
			a.code(s, words([]*syntax.Word{r.Word})[0], name+" <<<")
		}
	}
}

// code judges a script passed as an argument.
func (a *analyzer) code(s site, x arg, what string) {
	if runsDownload(x) {
		a.report(CRITICAL, "run-downloaded", s, what+" runs downloaded code")
		return
	}
	if s.fromInput && strings.Contains(x.s, "{}") { // xargs -I{} sh -c {}
		a.report(HIGH, "dynamic-code", s, what+" runs a script made from its input")
		return
	}
	if x.dyn && strings.HasPrefix(x.s, "$") && !strings.ContainsAny(x.s, " ;|&") {
		a.report(HIGH, "dynamic-code", s, what+" runs a script only known at run time")
		return
	}
	line := s.line
	if x.word != nil {
		line = a.lineOff + int(x.word.Pos().Line())
	}
	a.nested(s, x.s, line)
}

func (a *analyzer) eval(s site, args []arg) {
	if len(args) < 2 {
		return
	}
	var b strings.Builder
	dyn := false
	for i, x := range args[1:] {
		if runsDownload(x) {
			a.report(CRITICAL, "run-downloaded", s, "eval of downloaded content")
			return
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(x.s)
		dyn = dyn || strings.Contains(x.s, "$(…)")
	}
	if dyn {
		a.report(HIGH, "dynamic-code", s, "eval of command output, only known at run time")
		return
	}
	a.code(s, arg{s: b.String(), word: args[1].word}, "eval")
}

func (a *analyzer) source(s site, args []arg) {
	if len(args) < 2 {
		return
	}
	if runsDownload(args[1]) || a.downloaded[path.Clean(args[1].s)] {
		a.report(CRITICAL, "run-downloaded", s, "sources downloaded code")
	} else if args[1].dyn && !strings.HasPrefix(args[1].s, "$PWD/") {
		a.report(HIGH, "dynamic-code", s, "sources a file only known at run time")
	} else {
		followScript(a, s, args[1])
	}
}

// givesCode reports an interpreter invocation whose program is a command-line
// argument: python -c, perl -e/-E, ruby -e, node -e/-p, php -r, --eval...
func givesCode(name string, f flagSet) bool {
	letters := "ce"
	switch {
	case strings.HasPrefix(name, "python"):
		letters = "c"
	case name == "perl":
		letters = "eE"
	case name == "node" || name == "nodejs" || name == "bun":
		letters = "ep"
	case name == "php":
		letters = "rBRFE"
	case name == "pwsh" || name == "powershell":
		letters = "cC"
	}
	return f.has(letters, "--command", "--eval", "--print", "--exec")
}
