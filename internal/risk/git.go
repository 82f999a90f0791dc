package risk

import "strings"

// git judges a git command. planx's rollback commit protects the work tree
// it snapshots, not the remote, the hooks, ignored files or other branches.
func (a *analyzer) git(s site, args []arg) {
	i := a.gitGlobals(s, args)
	if i >= len(args) {
		return
	}
	sub, rest := args[i].s, args[i+1:]
	f := parseFlags(rest, "omCbBcsSt")
	if a.gitDiscard(s, sub, f, rest) {
		return
	}
	switch sub {
	case "push":
		a.gitPush(s, f)
	case "filter-branch", "filter-repo", "update-ref", "replace", "rebase":
		a.report(HIGH, "git-history", s, "git "+sub+" rewrites history or moves refs")
	case "commit":
		if f.has("", "--amend") {
			a.report(HIGH, "git-history", s, "git commit --amend rewrites a commit planx may have made")
		}
	case "reflog":
		if len(f.operands) > 0 && (f.operands[0].s == "expire" || f.operands[0].s == "delete") {
			a.report(HIGH, "git-history", s, "git reflog "+f.operands[0].s+" drops recovery points")
		}
	case "clone", "fetch", "pull", "ls-remote", "submodule", "archive":
		if sub != "archive" || f.has("", "--remote") {
			a.report(MEDIUM, "network", s, "git "+sub+" talks to a remote")
		}
	case "config":
		a.gitConfig(s, rest)
	case "rm", "mv":
		for _, op := range f.operands {
			if where(op.s, a.cwd) == gitDir {
				a.report(CRITICAL, "git-dir-write", s, "git "+sub+" inside .git")
			}
			a.sensitive(s, op, "git "+sub+" changes")
		}
		if sub == "rm" && len(f.operands) > 0 && !f.has("n", "--dry-run", "--cached") {
			// git rm deletes only what git tracks.
			if what, ok := deletesTracked(a.gate, f.has("r", "")); ok {
				a.report(HIGH, "delete-tracked", s, what)
			}
		}
	}
}

// gitGlobals reads git's options before the subcommand (a -c that makes
// git run other code is CRITICAL) and returns the subcommand's index.
func (a *analyzer) gitGlobals(s site, args []arg) int {
	i := 1
	for ; i < len(args); i++ {
		x := args[i].s
		switch {
		case (x == "-C" || x == "--git-dir" || x == "--work-tree" || x == "--namespace" || x == "--config-env") && i+1 < len(args):
			i++
		case x == "-c" && i+1 < len(args):
			i++
			if k, _, _ := strings.Cut(args[i].s, "="); gitExecKey(k) {
				a.report(CRITICAL, "git-config-exec", s, "git -c "+k+" makes git run other code")
			}
		case !strings.HasPrefix(x, "-"):
			return i
		}
	}
	return i
}

// gitDiscard judges the subcommands that throw uncommitted work away,
// reporting whether sub is one of them.
func (a *analyzer) gitDiscard(s site, sub string, f flagSet, rest []arg) bool {
	switch sub {
	case "reset":
		if f.has("", "--hard") {
			a.report(HIGH, "git-discard", s, "git reset --hard discards uncommitted changes")
			a.resetHard = true
			a.wipeCombo(s)
		} else if f.has("", "--soft") && len(f.operands) > 0 {
			a.report(HIGH, "git-history", s, "git reset --soft moves the branch under planx")
		}
	case "clean":
		if f.has("f", "--force") && !f.has("n", "--dry-run") {
			a.report(HIGH, "git-discard", s, "git clean deletes untracked files")
			if f.has("xX", "") {
				a.cleanAll = true
				a.wipeCombo(s)
			}
		}
	case "checkout":
		if f.has("f", "--force") || hasDashDash(rest) || (len(f.operands) > 0 && f.operands[len(f.operands)-1].s == ".") {
			a.report(HIGH, "git-discard", s, "git checkout overwrites uncommitted changes")
		}
	case "restore":
		if !f.has("S", "--staged") || f.has("W", "--worktree") {
			a.report(HIGH, "git-discard", s, "git restore overwrites uncommitted changes")
		}
	case "switch":
		if f.has("f", "--force", "--discard-changes") {
			a.report(HIGH, "git-discard", s, "git switch discards uncommitted changes")
		}
	case "stash":
		if len(f.operands) > 0 && (f.operands[0].s == "drop" || f.operands[0].s == "clear") {
			a.report(HIGH, "git-discard", s, "git stash "+f.operands[0].s+" deletes stashed work")
		}
	default:
		return false
	}
	return true
}

func hasDashDash(args []arg) bool { return indexOf(args, "--") >= 0 }

// wipeCombo: reset --hard plus clean -x leaves nothing uncommitted, ignored
// files (.env, local databases) included; planx's rollback commit cannot
// bring ignored files back.
func (a *analyzer) wipeCombo(s site) {
	if a.resetHard && a.cleanAll {
		a.report(CRITICAL, "wipe-worktree", s, "git reset --hard with git clean -x wipes every uncommitted and ignored file")
	}
}

func (a *analyzer) gitPush(s site, f flagSet) {
	switch {
	case f.has("f", "--force", "--force-with-lease", "--force-if-includes", "--mirror"):
		a.report(CRITICAL, "git-push-force", s, "git push overwrites remote history (force)")
		return
	case f.has("d", "--delete", "--prune"):
		a.report(CRITICAL, "git-push-force", s, "git push deletes remote refs")
		return
	case f.has("n", "--dry-run"):
		a.report(MEDIUM, "network", s, "git push --dry-run talks to a remote")
		return
	}
	for _, r := range f.operands[min(1, len(f.operands)):] { // after the remote
		switch {
		case strings.HasPrefix(r.s, "+"):
			a.report(CRITICAL, "git-push-force", s, "git push "+r.s+" forces a ref (+refspec)")
			return
		case strings.HasPrefix(r.s, ":"):
			a.report(CRITICAL, "git-push-force", s, "git push "+r.s+" deletes a remote ref")
			return
		}
	}
	a.report(HIGH, "git-push", s, "git push publishes commits")
}

// gitConfig flags settings that make git run programs or hand out
// credentials, and edits of config outside the repository.
func (a *analyzer) gitConfig(s site, rest []arg) {
	f := parseFlags(rest, "f")
	ops := f.operands
	subWrites := false
	if len(ops) > 0 {
		switch ops[0].s { // git 2.46 subcommands
		case "set", "unset", "edit", "rename-section", "remove-section":
			ops, subWrites = ops[1:], true
		case "get", "list":
			return
		}
	}
	for i, x := range rest {
		if (x.s == "-f" || x.s == "--file") && i+1 < len(rest) {
			a.write(s, rest[i+1], "git config writes")
		} else if p, ok := strings.CutPrefix(x.s, "--file="); ok {
			a.write(s, arg{s: p}, "git config writes")
		}
	}
	writes := subWrites || len(ops) >= 2 || f.has("e", "--add", "--replace-all", "--unset", "--unset-all", "--edit", "--set", "--unset")
	if !writes || f.has("l", "--get", "--get-all", "--get-regexp", "--list") {
		return
	}
	if len(ops) > 0 && gitExecKey(ops[0].s) {
		a.report(CRITICAL, "git-config-exec", s, "git config "+ops[0].s+" makes git run other code or hand out credentials")
	} else if f.has("", "--global", "--system") {
		a.report(HIGH, "write-outside", s, "git config changes configuration outside the repository")
	}
}

// gitExecKey reports config keys whose value git runs, trusts as a
// credential source, or uses to rewrite where it connects.
func gitExecKey(k string) bool {
	k = strings.ToLower(k)
	for _, p := range []string{"credential.", "alias.", "include.", "includeif.", "url.", "filter."} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	for _, suf := range []string{".hookspath", ".sshcommand", ".fsmonitor", ".askpass", ".gitproxy", ".editor",
		".pager", ".textconv", ".command", ".driver", ".uploadpack", ".receivepack", ".extraheader", ".helper", ".program", ".external"} {
		if strings.HasSuffix(k, suf) {
			return true
		}
	}
	return false
}
