package risk

import (
	"fmt"
	"path"
	"strings"
)

// A step or gate that runs a shell script of the repository (`sh
// scripts/clean.sh`, `./clean.sh`, `. ./env.sh`) does what the script
// does: the rating reads the script as the plan is assessed, as it reads
// `bash -c '...'`, and says in which file and line a finding is. The
// script is read as the work tree holds it then (Repo.Script): one a
// task writes before it runs is not there to read, and is judged as
// before, by its name.

// followScript judges, for a, the repository's shell script p, run by the
// command at s, when Repo.Script can read it.
func followScript(a *analyzer, s site, p arg) {
	if a.readScript == nil || p.dyn || p.s == "" || p.s == "-" || where(p.s, a.cwd) != inRepo {
		return
	}
	rel := repoPath(p.s, a.cwd)
	src, ok := a.readScript(rel)
	if !ok || !shellScript(rel, src) {
		return
	}
	if a.depth >= maxDepth {
		a.report(HIGH, "dynamic-code", s, "nests scripts too deep to follow")
		return
	}
	n := &analyzer{shared: a.shared, depth: a.depth + 1, cwd: a.cwd, via: rel, viaLine: s.line}
	if a.via != "" {
		// A script a script runs: said at the step's line, in the first.
		n.viaLine = a.viaLine
	}
	n.script(src, 0)
}

// viaDetail is a finding's detail in the script file via, read for the
// command at the step's line: which file and line it is in.
func viaDetail(via string, line int, detail string) string {
	return fmt.Sprintf("%s (%s, line %d)", detail, via, line)
}

// ranAsProgram follows, for a, the command name p run as a program when
// it is a path to a file of the repository other than one it downloaded.
func ranAsProgram(a *analyzer, s site, p arg) {
	if runsFile(p.s) && !a.downloaded[path.Clean(p.s)] {
		followScript(a, s, p)
	}
}

// shellScript reports whether src, the file at p, is a shell script: a
// #! line naming a shell, or none and a shell's extension. A program in
// another language or a binary is not read as one.
func shellScript(p, src string) bool {
	if strings.ContainsRune(src, 0) {
		return false
	}
	if line, ok := strings.CutPrefix(src, "#!"); ok {
		line, _, _ = strings.Cut(line, "\n")
		fields := strings.Fields(line)
		if len(fields) == 0 {
			return false
		}
		prog := path.Base(fields[0])
		if prog == "env" && len(fields) > 1 {
			prog = fields[1]
		}
		return isShell(prog) && prog != "fish"
	}
	switch path.Ext(p) {
	case ".sh", ".bash":
		return true
	}
	return false
}

// runsFile reports a command name that is a path to a file of the
// repository (./clean.sh, scripts/build.sh), run as a program.
func runsFile(name string) bool {
	return strings.Contains(name, "/") && !strings.HasPrefix(name, "/") && !strings.HasPrefix(name, "~") &&
		!strings.HasPrefix(name, "$")
}

// uncertain reports a finding of what is only known at run time (a
// command or code from a variable, a program in another language, a
// script too long to read), as opposed to what a script does for
// certain; scripts nested too deep are still said.
func uncertain(rule, what string) bool {
	switch rule {
	case "dynamic-command", "interpreter-code":
		return true
	case "dynamic-code":
		return !strings.Contains(what, "nests scripts too deep")
	}
	return false
}
