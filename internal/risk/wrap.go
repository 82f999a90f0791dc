package risk

import "strings"

// unwrapped is a command line with its prefix commands taken off:
// `sudo -E env X=1 nohup make install` runs make with privileges, in the
// background.
type unwrapped struct {
	args      []arg
	wrappers  []string // the prefix commands, outermost first
	fromInput bool     // xargs: the operands come from stdin
}

// optsWithValue lists, per wrapper, the short options that take a value.
var optsWithValue = map[string]string{
	"sudo": "ugCDhprtTU", "doas": "uC", "nice": "n", "ionice": "cnp", "stdbuf": "ioe",
	"timeout": "sk", "env": "uCS", "xargs": "aEeIiLlnPsd", "time": "fo", "chronic": "",
}

// unwrap strips sudo, env, nohup, timeout, xargs and the like; `su -c CMD`
// becomes `sh -c CMD` so the command is judged like any nested script.
func unwrap(args []arg) unwrapped {
	var u unwrapped
	for len(args) > 0 {
		name := cmdName(args[0].s)
		switch name {
		case "sudo", "doas", "pkexec", "run0", "env", "nice", "ionice", "stdbuf", "time",
			"nohup", "setsid", "command", "builtin", "exec", "chronic", "unbuffer", "caffeinate", "xargs":
			if name == "command" && len(args) > 1 && (args[1].s == "-v" || args[1].s == "-V") {
				return unwrapped{wrappers: append(u.wrappers, name)} // a lookup, runs nothing
			}
			u.wrappers = append(u.wrappers, name)
			u.fromInput = u.fromInput || name == "xargs"
			if name == "env" {
				if script, ok := splitString(args[1:]); ok { // env -S 'rm -rf ~'
					u.args = []arg{{s: "sh"}, {s: "-c"}, script}
					return u
				}
			}
			args = skipOptions(args[1:], optsWithValue[name])
			if name == "env" || name == "sudo" {
				for len(args) > 0 && strings.Contains(args[0].s, "=") && !strings.HasPrefix(args[0].s, "=") {
					args = args[1:]
				}
			}
		case "timeout":
			u.wrappers = append(u.wrappers, name)
			args = skipOptions(args[1:], optsWithValue[name])
			if len(args) > 0 {
				args = args[1:] // the duration
			}
		case "su":
			u.wrappers = append(u.wrappers, name)
			for i := 1; i+1 < len(args); i++ {
				if args[i].s == "-c" || args[i].s == "--command" {
					u.args = []arg{{s: "sh"}, {s: "-c"}, args[i+1]}
					return u
				}
			}
			return u
		default:
			u.args = args
			return u
		}
	}
	return u
}

// skipOptions drops leading options (and the values of those in withValue)
// up to the first operand or "--".
func skipOptions(args []arg, withValue string) []arg {
	for len(args) > 0 {
		s := args[0].s
		if s == "--" {
			return args[1:]
		}
		if !strings.HasPrefix(s, "-") || s == "-" {
			return args
		}
		args = args[1:]
		if takesValue(s, withValue) && len(args) > 0 {
			args = args[1:]
		}
	}
	return args
}

// flags parses a command's options the way GNU tools do (options may follow
// operands until "--"): short letters seen, long options seen, operands.
type flagSet struct {
	short    string
	long     []string
	operands []arg
}

func parseFlags(args []arg, withValue string) flagSet {
	var f flagSet
	opts := true
	for i := 0; i < len(args); i++ {
		s := args[i].s
		switch {
		case opts && s == "--":
			opts = false
		case opts && strings.HasPrefix(s, "--") && !args[i].dyn:
			f.long = append(f.long, s)
		case opts && strings.HasPrefix(s, "-") && len(s) > 1 && !args[i].dyn:
			f.short += s[1:]
			if takesValue(s, withValue) {
				i++ // the option's value
			}
		default:
			f.operands = append(f.operands, args[i])
		}
	}
	return f
}

// takesValue reports whether the short-option cluster s (-o, -euo) ends
// with an option whose value is the next word.
func takesValue(s, withValue string) bool {
	return !strings.HasPrefix(s, "--") && len(s) >= 2 && strings.Contains(withValue, s[len(s)-1:])
}

func (f flagSet) has(short string, long ...string) bool {
	if short != "" && strings.ContainsAny(f.short, short) {
		return true
	}
	for _, l := range f.long {
		for _, want := range long {
			if l == want || strings.HasPrefix(l, want+"=") {
				return true
			}
		}
	}
	return false
}

// interpreters run a program given as a file, a -c/-e string, or on stdin.
func isShell(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox":
		return true
	}
	return false
}

func isInterpreter(name string) bool {
	if isShell(name) || strings.HasPrefix(name, "python") {
		return true
	}
	switch name {
	case "perl", "ruby", "node", "nodejs", "php", "pwsh", "powershell", "lua", "deno", "bun", "osascript":
		return true
	}
	return false
}

// interpreterReadsStdin reports whether `name args...` takes its program
// from stdin: no script operand (or "-"), no -c/-e/-m program.
func interpreterReadsStdin(name string, args []arg) bool {
	if !isInterpreter(name) {
		return false
	}
	f := parseFlags(args[1:], "o")
	if isShell(name) {
		// -e is errexit for a shell, not a program as for perl or node.
		if f.has("c", "--command") {
			return false
		}
		if f.has("s") {
			return true
		}
	} else if f.has("cem", "--command", "--eval") {
		return false
	}
	return len(f.operands) == 0 || f.operands[0].s == "-"
}

// splitString finds env's -S/--split-string STRING, which env splits into
// a command line of its own.
func splitString(args []arg) (arg, bool) {
	for i, x := range args {
		switch {
		case !strings.HasPrefix(x.s, "-") || x.s == "--":
			return arg{}, false
		case (x.s == "-S" || x.s == "--split-string") && i+1 < len(args):
			return args[i+1], true
		case strings.HasPrefix(x.s, "--split-string="):
			return arg{s: strings.TrimPrefix(x.s, "--split-string="), dyn: x.dyn}, true
		case strings.HasPrefix(x.s, "-S") && len(x.s) > 2:
			return arg{s: x.s[2:], dyn: x.dyn}, true
		}
	}
	return arg{}, false
}
