package risk

import (
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// arg is one word of a command line, as far as it is known before run time.
type arg struct {
	s    string       // quotes removed; expansions kept as $NAME, ${NAME:?}, $(…)
	dyn  bool         // the word holds an expansion, so s is not its final value
	word *syntax.Word // nil when the word comes from the textual fallback
}

// words converts parsed words to args.
func words(ws []*syntax.Word) []arg {
	out := make([]arg, 0, len(ws))
	for _, w := range ws {
		var b strings.Builder
		dyn := wordParts(&b, w.Parts, false)
		out = append(out, arg{s: b.String(), dyn: dyn, word: w})
	}
	return out
}

// wordParts writes the static text of parts to b and reports whether some
// part is only known at run time. Parameters keep their name so the path
// rules can tell $HOME from $BUILD_DIR, and whether ${X:?} guards an empty
// value.
func wordParts(b *strings.Builder, parts []syntax.WordPart, quoted bool) bool {
	dyn := false
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(p.Value, quoted))
		case *syntax.SglQuoted:
			if p.Dollar {
				b.WriteString(decodeANSIC(p.Value)) // $'\x72m' is rm
			} else {
				b.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			dyn = wordParts(b, p.Parts, true) || dyn
		case *syntax.ParamExp:
			dyn = true
			name := "?"
			if p.Param != nil {
				name = p.Param.Value
			}
			if p.Exp != nil && (p.Exp.Op == syntax.ErrorUnsetOrNull || p.Exp.Op == syntax.ErrorUnset) {
				b.WriteString("${" + name + ":?}")
			} else {
				b.WriteString("$" + name)
			}
		case *syntax.CmdSubst:
			dyn = true
			b.WriteString("$(…)")
		case *syntax.ProcSubst:
			dyn = true
			b.WriteString("<(…)")
		default: // arithmetic, extglob, brace expansion: text unknown
			dyn = true
			b.WriteString("$?")
		}
	}
	return dyn
}

// decodeANSIC decodes the escapes of bash's $'...' quoting: \xHH, \NNN
// (octal), \uHHHH, \UHHHHHHHH, \cX and the C escapes.
func decodeANSIC(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'e', 'E':
			b.WriteByte(27)
		case 'f':
			b.WriteByte(12)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte(11)
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			}
		case 'x', 'u', 'U':
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			j := i + 1
			for j < len(s) && j-i-1 < max && strings.IndexByte("0123456789abcdefABCDEF", s[j]) >= 0 {
				j++
			}
			if j == i+1 {
				b.WriteString(`\` + string(c))
				continue
			}
			v, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			if c == 'x' {
				b.WriteByte(byte(v))
			} else {
				b.WriteRune(rune(v))
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 32)
			b.WriteByte(byte(v))
			i = j - 1
		default: // \\ \' \" \? and unknown escapes
			b.WriteByte(c)
		}
	}
	return b.String()
}

// unescape drops the backslashes the shell would remove. Inside double
// quotes only \\ \" \$ \` are escapes.
func unescape(s string, quoted bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (!quoted || strings.IndexByte("\\\"$`", s[i+1]) >= 0) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// cmdName is the command a word names: `/usr/bin/rm` and `\rm` are rm.
func cmdName(s string) string {
	return path.Base(s)
}

// downloaders fetch content from the network to stdout or a file.
var downloaders = map[string]bool{"curl": true, "wget": true, "fetch": true, "http": true,
	"https": true, "xh": true, "aria2c": true, "iwr": true, "Invoke-WebRequest": true}

// runsDownload reports whether a word runs a downloader in a command or
// process substitution: `"$(curl -fsSL URL)"`, `<(wget -qO- URL)`.
func runsDownload(a arg) bool {
	if a.word == nil { // textual fallback
		if !strings.Contains(a.s, "$(") && !strings.Contains(a.s, "<(") && !strings.Contains(a.s, "`") {
			return false
		}
		for _, f := range shellFields(strings.NewReplacer("$(", " ", "<(", " ", "`", " ", ")", " ").Replace(a.s)) {
			if downloaders[cmdName(f)] {
				return true
			}
		}
		return false
	}
	found := false
	syntax.Walk(a.word, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			if in := unwrap(words(c.Args)); len(in.args) > 0 && downloaders[cmdName(in.args[0].s)] {
				found = true
			}
		}
		return !found
	})
	return found
}

// shellFields splits a line into words honouring quotes and backslashes; it
// serves the textual fallback, where no parser could make sense of the line.
func shellFields(line string) []string {
	var out []string
	var b strings.Builder
	inWord := false
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				b.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == '\\' && i+1 < len(line):
			i++
			b.WriteByte(line[i])
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				out = append(out, b.String())
				b.Reset()
				inWord = false
			}
		default:
			b.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, b.String())
	}
	return out
}
