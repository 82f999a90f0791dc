package risk

import (
	"path"
	"strings"
)

// command judges one command line (prefix commands included).
func (a *analyzer) command(s site, args []arg) {
	if a.commands++; a.commands > maxCommands {
		if a.commands == maxCommands+1 {
			a.report(MEDIUM, "dynamic-code", s, "too many commands to judge; the rest were not read")
		}
		return
	}
	in := unwrap(args)
	for _, w := range in.wrappers {
		switch w {
		case "sudo", "doas", "su", "pkexec", "run0":
			a.report(CRITICAL, "privilege", s, "runs with root privileges ("+w+")")
		case "nohup", "setsid":
			a.report(MEDIUM, "background", s, w+" detaches a process from the step")
		}
	}
	s.fromInput = s.fromInput || in.fromInput
	if len(in.args) == 0 {
		return
	}
	args = in.args
	if args[0].dyn || expands(args[0].s) {
		// `X=rm; $X -rf ~`, `$(echo rm) -rf ~`: which program runs is only
		// known at run time, so nothing below can judge it.
		a.report(HIGH, "dynamic-command", s, "runs a command whose name is only known at run time")
		return
	}
	name := cmdName(args[0].s)
	if a.downloaded[path.Clean(args[0].s)] && strings.Contains(args[0].s, "/") {
		a.report(CRITICAL, "run-downloaded", s, "runs a file it downloaded")
	}
	switch {
	case name == "rm" || name == "unlink" || name == "shred":
		a.rm(s, args)
	case name == "find":
		a.find(s, args)
	case name == "chmod" || name == "chown" || name == "chgrp" || name == "setfacl":
		a.chmod(s, name, args)
	case strings.HasPrefix(name, "mkfs") || name == "fdisk" || name == "sfdisk" || name == "parted" ||
		name == "wipefs" || name == "mkswap" || name == "diskutil":
		a.report(CRITICAL, "disk-destroy", s, name+" rewrites a disk or partition")
	case name == "dd":
		for _, x := range args[1:] {
			if t, ok := strings.CutPrefix(x.s, "of="); ok {
				a.write(s, arg{s: t, dyn: x.dyn}, "dd writes")
			}
		}
	case name == "cp" || name == "mv" || name == "install" || name == "ln" || name == "tee" ||
		name == "touch" || name == "truncate" || name == "sed" || (name == "perl" || name == "yq") && hasInPlace(args):
		a.writes(s, name, args)
	case name == "git":
		a.git(s, args)
	case name == "cd" || name == "pushd":
		f := parseFlags(args[1:], "")
		target := ""
		if len(f.operands) > 0 {
			target = f.operands[0].s
		}
		if target == "-" {
			target = "$OLDPWD"
		}
		a.cwd = joinCwd(a.cwd, target)
	case name == "eval":
		a.eval(s, args)
	case name == "source" || name == ".":
		a.source(s, args)
	case name == "export" || name == "declare" || name == "typeset": // textual fallback only
		for _, x := range args[1:] {
			if k, _, ok := strings.Cut(x.s, "="); ok && envVars[k] {
				a.report(MEDIUM, "env-change", s, "changes "+k+" for the commands that follow")
			}
		}
	case isInterpreter(name):
		a.interpreter(s, name, args)
	default:
		a.tools(s, name, args)
		ranAsProgram(a, s, args[0])
	}
}

// expands reports a command name bash rewrites before running it: a glob
// (/bin/r?) or a brace expansion ({r,}m).
func expands(name string) bool {
	if strings.ContainsAny(name, "*?") {
		return true
	}
	if i := strings.IndexByte(name, '['); i >= 0 && strings.IndexByte(name[i+1:], ']') >= 0 {
		return true // a bracket glob; `[` alone is test
	}
	open := strings.IndexByte(name, '{')
	return open >= 0 && strings.IndexByte(name[open:], '}') > 0 &&
		(strings.Contains(name[open:], ",") || strings.Contains(name[open:], ".."))
}

// rm deletes its operands; -r makes the damage a whole tree.
func (a *analyzer) rm(s site, args []arg) {
	f := parseFlags(args[1:], "")
	recursive := f.has("rR", "--recursive")
	if f.has("", "--no-preserve-root") {
		a.report(CRITICAL, "delete-broad", s, "deletes with --no-preserve-root")
	}
	if len(f.operands) == 0 && s.fromInput && recursive {
		a.report(HIGH, "delete-outside", s, "deletes trees named by its input; where is unknown")
	}
	for _, t := range f.operands {
		a.del(s, t, recursive)
	}
}

// del judges deleting one path.
func (a *analyzer) del(s site, t arg, recursive bool) {
	if strings.HasPrefix(expandKnownVars(a.cwd), "$") && !isAnchored(t.s) {
		// `cd "$OLDPWD" && rm x`: the directory is only known at run time.
		a.report(HIGH, "delete-outside", s, "deletes in a directory only known at run time")
		return
	}
	switch where(t.s, a.cwd) {
	case gitDir:
		a.report(CRITICAL, "git-dir-write", s, "deletes inside .git")
	case device:
		a.report(CRITICAL, "disk-destroy", s, "destroys a device")
	case broad, emptyVar:
		if recursive {
			a.report(CRITICAL, "delete-broad", s, "recursively deletes "+describe(t.s, a.cwd))
		} else {
			a.report(HIGH, "delete-outside", s, "deletes "+describe(t.s, a.cwd))
		}
	case outside:
		if recursive {
			a.report(CRITICAL, "delete-broad", s, "recursively deletes outside the repository")
		} else {
			a.report(HIGH, "delete-outside", s, "deletes outside the repository")
		}
	case repoRoot:
		if recursive {
			a.report(CRITICAL, "delete-broad", s, "recursively deletes the whole repository")
		} else {
			a.report(MEDIUM, "delete-recursive", s, "deletes every file at the repository root")
		}
	case tmpDir:
		if recursive {
			a.report(HIGH, "delete-outside", s, "recursively deletes in the temporary directory")
		}
	case unknownVar:
		if recursive {
			a.report(HIGH, "delete-outside", s, "recursively deletes a path only known at run time")
		}
	case inRepo:
		switch {
		case a.ignored != nil && a.ignored(repoPath(t.s, a.cwd)):
			a.report(HIGH, "delete-ignored", s, "deletes files git ignores, which no commit holds")
		case (recursive || a.gate) && a.tracked != nil && a.tracked(repoPath(t.s, a.cwd)):
			if what, ok := deletesTracked(a.gate, recursive); ok {
				a.report(HIGH, "delete-tracked", s, what)
			}
		case recursive:
			a.report(MEDIUM, "delete-recursive", s, "recursively deletes inside the repository")
		}
		a.sensitive(s, t, "deletes")
	}
}

// describe names a broad target for a finding.
func describe(p, cwd string) string {
	p = expandKnownVars(p)
	switch {
	case strings.HasPrefix(p, "$"):
		return "the filesystem root if " + strings.SplitN(p, "/", 2)[0] + " is empty"
	case strings.HasPrefix(p, "~"):
		return "the home directory"
	case strings.HasPrefix(p, "..") || strings.HasPrefix(cwd, ".."):
		return "the repository's parent directory"
	case cwd == "/" || p == "/" || p == "/*" || p == "/.*":
		return "the filesystem root"
	}
	return "a system-wide directory"
}

// find deletes what it finds with -delete or -exec rm.
func (a *analyzer) find(s site, args []arg) {
	var starts []arg
	i := 1
	for ; i < len(args) && !strings.HasPrefix(args[i].s, "-") && args[i].s != "(" && args[i].s != "!"; i++ {
		starts = append(starts, args[i])
	}
	if len(starts) == 0 {
		starts = []arg{{s: "."}}
	}
	for ; i < len(args); i++ {
		switch args[i].s {
		case "-delete":
			for _, st := range starts {
				a.del(s, arg{s: st.s + "/{}", dyn: st.dyn}, true)
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			end := i + 1
			for end < len(args) && args[end].s != ";" && args[end].s != "+" {
				end++
			}
			for _, st := range starts { // judge the command once per start, {} below it
				sub := make([]arg, 0, end-i-1)
				for _, x := range args[i+1 : end] {
					x.s = strings.ReplaceAll(x.s, "{}", st.s+"/{}")
					sub = append(sub, x)
				}
				a.command(s, sub)
			}
			i = end
		}
	}
}

// chmod and friends: recursive is HIGH, on a broad tree CRITICAL.
func (a *analyzer) chmod(s site, name string, args []arg) {
	f := parseFlags(args[1:], "")
	ops := f.operands
	if len(ops) > 0 && !f.has("", "--reference") && name != "setfacl" {
		ops = ops[1:] // the mode or owner
	}
	recursive := f.has("R", "--recursive")
	for _, t := range ops {
		switch w := where(t.s, a.cwd); {
		case w == gitDir:
			a.report(CRITICAL, "git-dir-write", s, name+" changes files inside .git")
		case recursive && (w == broad || w == outside || w == emptyVar):
			a.report(CRITICAL, "chmod-broad", s, name+" -R outside the repository")
		case recursive:
			a.report(HIGH, "chmod-recursive", s, name+" -R changes a whole tree")
		case w == broad || w == outside || w == device:
			a.report(HIGH, "write-outside", s, name+" changes a file outside the repository")
		}
	}
}

func hasInPlace(args []arg) bool {
	for _, x := range args[1:] {
		if x.s == "--in-place" || strings.HasPrefix(x.s, "--in-place=") ||
			(strings.HasPrefix(x.s, "-") && !strings.HasPrefix(x.s, "--") && strings.Contains(x.s, "i")) {
			return true
		}
	}
	return false
}

// writes judges the files a file-writing tool changes.
func (a *analyzer) writes(s site, name string, args []arg) {
	var targets []arg
	switch name {
	case "cp", "install", "ln":
		f := parseFlags(args[1:], "tSmogT")
		for i, x := range args {
			if (x.s == "-t" || x.s == "--target-directory") && i+1 < len(args) {
				targets = append(targets, args[i+1])
			} else if t, ok := strings.CutPrefix(x.s, "--target-directory="); ok {
				targets = append(targets, arg{s: t, dyn: x.dyn})
			}
		}
		switch {
		case len(targets) > 0:
		case name == "install" && f.has("d", "--directory"):
			targets = f.operands
		case len(f.operands) >= 2:
			targets = f.operands[len(f.operands)-1:]
		}
	case "sed", "perl", "yq":
		if !hasInPlace(args) {
			return
		}
		f := parseFlags(args[1:], "ef")
		targets = f.operands
		if len(targets) > 0 && !f.has("ef", "--expression", "--file") {
			targets = targets[1:] // the script
		}
	case "truncate":
		targets = parseFlags(args[1:], "sr").operands
	default: // mv (the sources disappear too), tee, touch
		targets = parseFlags(args[1:], "tS").operands
	}
	for _, t := range targets {
		a.write(s, t, name+" writes")
	}
}

// write judges changing path t (a redirection target, cp's destination...).
func (a *analyzer) write(s site, t arg, how string) {
	switch where(t.s, a.cwd) {
	case gitDir:
		a.report(CRITICAL, "git-dir-write", s, how+" into .git (hooks and config run code)")
	case device:
		a.report(CRITICAL, "disk-destroy", s, how+" to a device")
	case broad, outside, emptyVar:
		a.report(HIGH, "write-outside", s, how+" outside the repository")
		a.sensitive(s, t, "writes")
	case sink:
	default:
		a.sensitive(s, t, "writes")
	}
}

// sensitive flags CI definitions and secret files.
func (a *analyzer) sensitive(s site, t arg, how string) {
	if ciFile(t.s) {
		a.report(HIGH, "ci-file", s, how+" a CI definition")
	}
	if secretFile(t.s) {
		a.report(HIGH, "secret-file", s, how+" a secrets or credentials file")
	}
}

// deletesTracked says how a deletion of files git tracks is reported:
// destructive in a gate, whose job is to check the tree, and for a whole
// tree of them at once (rm -r, git rm -r) in a step; ok is false for a
// step's deletion of single files, which is a task's work.
func deletesTracked(gate, recursive bool) (what string, ok bool) {
	switch {
	case gate:
		return "a gate that deletes files git tracks", true
	case recursive:
		return "recursively deletes files git tracks", true
	}
	return "", false
}
