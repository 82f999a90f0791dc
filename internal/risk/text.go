package risk

import (
	"fmt"
	"strings"
)

// fallback judges a script that does not parse: every line is split on
// ; && || & and | and each piece judged as a command, which can both miss
// things and see commands inside strings, hence MEDIUM at least.
func (a *analyzer) fallback(src string, err error) {
	a.findings = append(a.findings, Finding{Level: MEDIUM, Line: a.lineOff + parseErrorLine(err), Rule: "unparsable",
		Detail: fmt.Sprintf("does not parse as bash (%v); judged line by line as text", err)})
	for i, line := range strings.Split(src, "\n") {
		line = stripComment(line)
		s := site{line: a.lineOff + i + 1, text: excerpt(line)}
		if strings.Contains(strings.ReplaceAll(line, " ", ""), "(){:|:&") {
			a.report(CRITICAL, "fork-bomb", s, "spawns copies of itself without end")
		}
		if strings.Contains(strings.NewReplacer("&&", "", ">&", "", "&>", "").Replace(line), "&") {
			a.report(MEDIUM, "background", s, "may start a background process")
		}
		for _, list := range splitAny(line, "&&", "||", ";", "&") {
			var stages [][]arg
			for _, stage := range splitAny(list, "|") {
				args, targets := textArgs(stage)
				for _, t := range targets {
					a.write(s, t, "redirects output")
				}
				stages = append(stages, args)
				if len(args) > 0 {
					a.command(s, args)
				}
			}
			a.pipeStages(s, stages)
		}
	}
}

// stripComment drops a # comment: at the start of the line or after a blank,
// outside quotes.
func stripComment(line string) string {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return line[:i]
		}
	}
	return line
}

// splitAny splits s at every separator outside quotes; "|" does not split "||".
func splitAny(s string, seps ...string) []string {
	var out []string
	var quote byte
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			if c == quote {
				quote = 0
			}
			continue
		}
		if c == '\'' || c == '"' {
			quote = c
			continue
		}
		for _, sep := range seps {
			if strings.HasPrefix(s[i:], sep) && !(sep == "|" && (strings.HasPrefix(s[i:], "||") || (i > 0 && s[i-1] == '|'))) &&
				!(sep == "&" && (strings.HasPrefix(s[i:], "&&") || (i > 0 && (s[i-1] == '&' || s[i-1] == '>')))) {
				out = append(out, s[start:i])
				start = i + len(sep)
				i = start - 1
				break
			}
		}
	}
	return append(out, s[start:])
}

// textArgs splits one command into words, taking out redirection targets
// (> f, >>f, 2> f, &> f).
func textArgs(cmd string) (args, targets []arg) {
	fields := shellFields(cmd)
	for i := 0; i < len(fields); i++ {
		f := strings.TrimLeft(fields[i], "0123456789&")
		if op, rest, ok := cutRedirect(f); ok {
			if op == "<" || op == "<<" {
				if rest == "" {
					i++
				}
				continue
			}
			if rest == "" && i+1 < len(fields) {
				i++
				rest = fields[i]
			}
			if rest != "" && !strings.HasPrefix(rest, "&") {
				targets = append(targets, arg{s: rest, dyn: strings.Contains(rest, "$")})
			}
			continue
		}
		args = append(args, arg{s: fields[i], dyn: strings.Contains(fields[i], "$") || strings.Contains(fields[i], "`")})
	}
	return args, targets
}

func cutRedirect(f string) (op, rest string, ok bool) {
	for _, op := range []string{">>", ">|", ">", "<<", "<"} {
		if r, found := strings.CutPrefix(f, op); found {
			return op, r, true
		}
	}
	return "", "", false
}
