package judge

import (
	"bytes"
	"encoding/json"
	"path"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// What a gate runs is more than the files its command names: test.sh
// sources lib.sh, `make test` runs scripts/test.sh, package.json's test
// script runs check.sh. An agent that rewrites lib.sh to `exit 0` weakens
// the judge as surely as one that empties test.sh, so the shell scripts a
// gate reaches that way are protected too. They are read as the run's base
// commit holds them, never from the work tree an executor may have changed.
// A program in another language that a gate script runs (python x.py) is
// not followed: it may as well be the code under test.

// reachDepth bounds how many scripts deep the search goes.
const reachDepth = 6

// ScriptReader follows the scripts a gate runs, reading each file once
// through read (the base commit's version: the caller's choice) and
// visiting each once across every Follow.
type ScriptReader struct {
	readFile func(p string) ([]byte, bool)
	seen     map[string]bool
	// cache: each path's content, nil when it has none
	cache map[string][]byte
}

// NewScriptReader reads files with read, which reports false for a path
// that does not exist.
func NewScriptReader(read func(p string) ([]byte, bool)) *ScriptReader {
	return &ScriptReader{readFile: read, seen: map[string]bool{}, cache: map[string][]byte{}}
}

func (rd *ScriptReader) read(p string) ([]byte, bool) {
	if b, ok := rd.cache[p]; ok {
		return b, b != nil
	}
	b, ok := rd.readFile(p)
	if !ok {
		b = nil
	} else if b == nil {
		b = []byte{}
	}
	rd.cache[p] = b
	return b, b != nil
}

// Follow visits seed, a file a gate's command names ("package.json#test"
// for a package.json script), reporting each file it reaches with the
// file that runs it: sourced or run shell scripts, makefile includes and
// recipes, package.json scripts, reachDepth deep.
func (rd *ScriptReader) Follow(seed string, found func(p, via string)) {
	rd.visit(seed, "", run{}, 0, found)
}

// visit is follow for p run as how says: a file read by source or "." is
// shell whatever its name.
func (rd *ScriptReader) visit(p, via string, how run, depth int, found func(p, via string)) {
	if depth > reachDepth || rd.seen[p] {
		return
	}
	rd.seen[p] = true
	file, script, _ := strings.Cut(p, "#")
	data, ok := rd.read(file)
	if !ok {
		// Not in the base commit: a script that sources or runs it (an
		// optional local.sh) would run it once a task creates it.
		if via != "" && (how.sourced || how.shell || isShellName(strings.TrimPrefix(path.Ext(file), "."))) {
			found(file, via)
		}
		return
	}
	if via != "" {
		found(file, via)
	}
	var lines []string
	switch {
	case script != "":
		var pkg struct {
			Scripts map[string]string `json:"scripts"`
		}
		if json.Unmarshal(data, &pkg) != nil || pkg.Scripts[script] == "" {
			return
		}
		lines = []string{pkg.Scripts[script]}
		p = file + `'s "` + script + `" script`
	case isMakefile(file):
		for _, l := range strings.Split(string(data), "\n") {
			if m := makeIncludeRE.FindStringSubmatch(l); m != nil {
				for _, inc := range strings.Fields(m[1]) {
					rd.visit(inc, file, run{sourced: true}, depth+1, found)
				}
			} else if strings.HasPrefix(l, "\t") {
				// a recipe line: @ (silent), - (ignore errors), + prefixes
				l = strings.TrimLeft(strings.TrimSpace(l), "@-+")
				lines = append(lines, strings.ReplaceAll(strings.ReplaceAll(l, "$(MAKE)", "make"), "${MAKE}", "make"))
			}
		}
	case how.sourced || isShellScript(file, data):
		lines = []string{string(data)}
	default:
		return
	}
	dir := path.Dir(file)
	vars := map[string]bool{}
	for _, src := range lines {
		for _, next := range shellRuns(src, vars) {
			cands := resolveRun(next.word, dir)
			if existing := slices.DeleteFunc(slices.Clone(cands), func(c string) bool { _, ok := rd.read(c); return !ok }); len(existing) > 0 {
				cands = existing // the name was meant relative to where it exists
			} else if len(cands) > 1 {
				cands = cands[:1] // gates run at the top: a shell would look there
			}
			for _, cand := range cands {
				rd.visit(cand, p, next, depth+1, found)
			}
		}
	}
}

var makeIncludeRE = regexp.MustCompile(`^\s*-?s?include\s+(.+)$`)

func isMakefile(p string) bool {
	b := path.Base(p)
	return b == "Makefile" || b == "makefile" || b == "GNUmakefile" || strings.HasSuffix(b, ".mk")
}

// isShellScript: by name, or by a #! line naming a shell.
func isShellScript(p string, data []byte) bool {
	switch path.Ext(p) {
	case ".sh", ".bash", ".bats", ".zsh", ".ksh":
		return true
	}
	first, _, _ := bytes.Cut(data, []byte("\n"))
	if !bytes.HasPrefix(first, []byte("#!")) {
		return false
	}
	for _, sh := range []string{"sh", "bash", "zsh", "dash", "ksh", "bats"} {
		if bytes.HasSuffix(bytes.TrimSpace(first), []byte("/"+sh)) || bytes.HasSuffix(bytes.TrimSpace(first), []byte(" "+sh)) ||
			bytes.Contains(first, []byte("/"+sh+" ")) || bytes.Contains(first, []byte(" "+sh+" ")) {
			return true
		}
	}
	return false
}

// run is a file a script runs: sourced (source or "."), run by a shell
// named on the line (sh x), or run by its path.
type run struct {
	word    string
	sourced bool
	shell   bool
}

// shellRuns returns the files a piece of shell runs or sources, parsed
// with mvdan.cc/sh, "@DIR@" standing for the script's directory
// ($(dirname "$0"), ${BASH_SOURCE%/*}, a variable assigned one of them).
// Text that does not parse runs nothing known.
func shellRuns(src string, vars map[string]bool) []run {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil
	}
	var out []run
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Value != nil && n.Name != nil && wordText(n.Value, vars) == "@DIR@" {
				vars[n.Name.Value] = true
			}
		case *syntax.CallExpr:
			args := make([]string, len(n.Args))
			for i, w := range n.Args {
				args[i] = wordText(w, vars)
			}
			for len(args) > 0 && isPrefixWord(args[0]) {
				args = args[1:]
			}
			if len(args) == 0 {
				return true
			}
			switch w := args[0]; {
			case w == "source" || w == "." || isShellName(w):
				for _, a := range args[1:] {
					if !strings.HasPrefix(a, "-") {
						out = append(out, run{word: a, sourced: !isShellName(w), shell: isShellName(w)})
						break
					}
				}
			case w == "make":
				out = append(out, run{word: "Makefile"})
			case strings.Contains(w, "/"):
				out = append(out, run{word: w})
			}
		}
		return true
	})
	return out
}

// wordText is a word's text when it is known before the script runs:
// literals and quotes, "@DIR@" for the script's directory; anything else
// (another variable, a command substitution) makes it "$".
func wordText(w *syntax.Word, vars map[string]bool) string {
	var b strings.Builder
	if !partsText(&b, w.Parts, vars) {
		return "$"
	}
	return b.String()
}

func partsText(b *strings.Builder, parts []syntax.WordPart, vars map[string]bool) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if !partsText(b, p.Parts, vars) {
				return false
			}
		case *syntax.ParamExp:
			switch {
			case vars[p.Param.Value] && p.Exp == nil && p.Repl == nil && !p.Length:
				b.WriteString("@DIR@")
			case isSelf(p.Param.Value) && p.Exp != nil && p.Exp.Op == syntax.RemSmallSuffix && p.Exp.Word != nil && p.Exp.Word.Lit() == "/*":
				b.WriteString("@DIR@") // ${0%/*}
			default:
				return false
			}
		case *syntax.CmdSubst:
			if !scriptDirSubst(p, vars) {
				return false
			}
			b.WriteString("@DIR@")
		default:
			return false
		}
	}
	return true
}

// selfWord reports "$0", $BASH_SOURCE, "${BASH_SOURCE[0]}" and the like.
func selfWord(w *syntax.Word) bool {
	parts := w.Parts
	if len(parts) == 1 {
		if d, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = d.Parts
		}
	}
	if len(parts) != 1 {
		return false
	}
	pe, ok := parts[0].(*syntax.ParamExp)
	return ok && isSelf(pe.Param.Value) && pe.Exp == nil && pe.Repl == nil && !pe.Length
}

// isSelf: $0 or $BASH_SOURCE, the script's own path.
func isSelf(name string) bool { return name == "0" || name == "BASH_SOURCE" }

// scriptDirSubst reports a command substitution that prints the script's
// directory: $(dirname "$0"), $(cd "$(dirname "$0")" && pwd).
func scriptDirSubst(c *syntax.CmdSubst, vars map[string]bool) bool {
	if len(c.Stmts) != 1 {
		return false
	}
	switch x := c.Stmts[0].Cmd.(type) {
	case *syntax.CallExpr:
		if len(x.Args) == 2 && x.Args[0].Lit() == "dirname" {
			return selfWord(x.Args[1])
		}
	case *syntax.BinaryCmd:
		if x.Op == syntax.AndStmt {
			if cd, ok := x.X.Cmd.(*syntax.CallExpr); ok && len(cd.Args) == 2 && cd.Args[0].Lit() == "cd" {
				if pwd, ok := x.Y.Cmd.(*syntax.CallExpr); ok && len(pwd.Args) >= 1 && pwd.Args[0].Lit() == "pwd" {
					return wordText(cd.Args[1], vars) == "@DIR@"
				}
			}
		}
	}
	return false
}

func isPrefixWord(w string) bool {
	switch w {
	case "exec", "command", "env", "nohup":
		return true
	}
	return false
}

func isShellName(w string) bool {
	switch path.Base(w) {
	case "sh", "bash", "zsh", "dash", "ksh", "bats":
		return true
	}
	return false
}

// resolveRun turns a word a script runs into repository paths to try:
// relative to the script's directory when it says so, else to the
// repository's top (where gates run) and to the script's directory.
func resolveRun(w, dir string) []string {
	if strings.ContainsAny(w, "$*?{}`") && !strings.Contains(w, "@DIR@") {
		return nil
	}
	if strings.Contains(w, "@DIR@") {
		w = strings.ReplaceAll(w, "@DIR@", dir)
		if strings.ContainsAny(w, "$*?{}`") {
			return nil
		}
		return cleanRel(w)
	}
	if path.IsAbs(w) {
		return nil
	}
	return append(cleanRel(w), cleanRel(path.Join(dir, w))...)
}

func cleanRel(p string) []string {
	c := path.Clean(p)
	if c == "." || strings.HasPrefix(c, "../") || c == ".." || path.IsAbs(c) {
		return nil
	}
	return []string{c}
}
