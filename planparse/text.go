package planparse

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

var (
	trailingHashes = regexp.MustCompile(`\s+#+\s*$`)
	datePrefixRe   = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}(?:[_T -]\d{2}[-:.]\d{2}(?:[-:.]\d{2})?)?[_ -]*`)
	tIDRe          = regexp.MustCompile(`^[Tt](\d{1,6})$`)
	lineRangeRe    = regexp.MustCompile(`:\d+(?:[-,]\d+)*$`)
	mdLinkRe       = regexp.MustCompile(`^\[[^\]]*\]\(([^)\s]+)\)`)
	stampRe        = regexp.MustCompile(`^\(\d{4}-\d{2}-\d{2}[^)]*\)\s*`)
	htmlCommentRe  = regexp.MustCompile(`\s*<!--.*?-->\s*`)
	genericNameRe  = regexp.MustCompile(`(?i)^tasks?(?:[-_.][a-z]{2})?\.(?:md|markdown)$`)
)

func cleanHeading(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, "#") {
		s = trailingHashes.ReplaceAllString(" "+s, "")
		s = strings.TrimSpace(s)
	}
	return s
}

// plainText strips the inline markup that decorates titles in plans:
// emphasis markers, HTML comments, escapes and surrounding whitespace.
func plainText(s string) string {
	if strings.Contains(s, "<!--") {
		s = htmlCommentRe.ReplaceAllString(s, " ")
	}
	s = strings.ReplaceAll(s, "**", "")
	s = strings.ReplaceAll(s, "__", "")
	s = strings.ReplaceAll(s, `\_`, "_")
	s = strings.ReplaceAll(s, `\*`, "*")
	return strings.Join(strings.Fields(s), " ")
}

// canonicalID turns a T-number into planx's T001 form.
func canonicalID(n int) TaskID {
	return TaskID(fmt.Sprintf("T%03d", n))
}

// parseTID returns the number of a T-ID such as "T12" or "t0012".
func parseTID(s string) (int, bool) {
	m := tIDRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n <= 0 {
		return 0, false
	}
	return n, true
}

// refKey normalises a task reference or label so that "Task 1.1", "1.1."
// and "1.1" compare equal.
func refKey(s string) string {
	s = strings.ToLower(strings.TrimSpace(plainText(s)))
	s = strings.TrimPrefix(s, "task ")
	s = strings.TrimPrefix(s, "subtask ")
	s = strings.TrimSpace(s)
	return strings.TrimSuffix(s, ".")
}

// slugify makes a lower-case ASCII slug for commit and log names.
func slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b.WriteRune(r)
			dash = false
		case b.Len() > 0 && !dash:
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 60 {
			break
		}
	}
	return strings.Trim(b.String(), "-")
}

// topicFromPath is the file name without directory, date prefix and
// extension; a spec's tasks.md (or tasks-es.md) takes the name
// of its feature directory instead: specs/001-foo/tasks.md is 001-foo.
func topicFromPath(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	base := path.Base(p)
	if genericNameRe.MatchString(base) {
		if dir := path.Base(path.Dir(p)); dir != "." && dir != "/" && dir != ".." {
			if t := slugify(dir); t != "" {
				return t
			}
		}
	}
	for _, ext := range []string{".plan.md", ".md", ".markdown", ".json", ".txt"} {
		if strings.HasSuffix(strings.ToLower(base), ext) && len(base) > len(ext) {
			base = base[:len(base)-len(ext)]
			break
		}
	}
	if stripped := datePrefixRe.ReplaceAllString(base, ""); stripped != "" {
		base = stripped
	}
	return slugify(base)
}

// cleanPath turns a declared file entry into a slash path, or "" when the
// entry does not look like a path. Line ranges (path:12-40), markdown links,
// backticks and trailing notes such as "(new)" are dropped.
func cleanPath(s string) string {
	s = strings.TrimSpace(s)
	if m := mdLinkRe.FindStringSubmatch(s); m != nil {
		s = m[1]
	}
	if i := strings.Index(s, "`"); i >= 0 {
		rest := s[i+1:]
		if j := strings.Index(rest, "`"); j >= 0 {
			s = rest[:j]
		}
	}
	for _, sep := range []string{" (", " - ", " — ", " – ", " —", " ", "\t"} {
		if i := strings.Index(s, sep); i > 0 {
			s = s[:i]
		}
	}
	// Quotes around the whole entry are markup; inside a name they are
	// part of it ("quoted".txt).
	s = strings.Trim(s, "`*")
	for _, q := range []string{`"`, "'"} {
		if len(s) >= 2 && strings.HasPrefix(s, q) && strings.HasSuffix(s, q) && !strings.Contains(s[1:len(s)-1], q) {
			s = s[1 : len(s)-1]
		}
	}
	s = strings.TrimRight(s, ",;.")
	s = lineRangeRe.ReplaceAllString(s, "")
	s = strings.TrimRight(s, ":")
	switch strings.ToLower(s) {
	case "", "-", "none", "n/a", "na", "tbd", "—":
		return ""
	}
	if strings.ContainsAny(s, "<>|") || strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") {
		return ""
	}
	return strings.ReplaceAll(s, `\`, "/")
}

// pathLike reports whether s names a file or directory rather than a word.
func pathLike(s string) bool {
	if s == "" || strings.ContainsAny(s, " *") {
		return false
	}
	if strings.Contains(s, "/") {
		return true
	}
	dot := strings.LastIndexByte(s, '.')
	if dot <= 0 || dot == len(s)-1 || len(s)-dot > 6 {
		return false
	}
	for _, r := range s[dot+1:] {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	// "e.g" and version numbers are not files.
	return !unicode.IsDigit(rune(s[dot+1])) && strings.ToLower(s) != "e.g"
}

// dotName reports whether s names a dotfile at the top of the repository
// (.gitignore, .env.example, .nvmrc): a dot, then a letter or '_', then
// letters, digits, '.', '-' and '_'. Only a declaration (a Files list, a
// Create:/Modify: line) takes one as a path: in prose `.js` names an
// extension, and "...", ".5" are no names at all.
func dotName(s string) bool {
	if len(s) < 2 || s[0] != '.' {
		return false
	}
	for i, r := range s[1:] {
		ok := unicode.IsLetter(r) || r == '_' || i > 0 && (unicode.IsDigit(r) || r == '.' || r == '-')
		if !ok {
			return false
		}
	}
	return true
}

// inGitDir reports a path in the repository's git directory.
func inGitDir(p string) bool {
	c := path.Clean(p)
	return c == ".git" || strings.HasPrefix(c, ".git/")
}

// escapes reports whether a repository-relative path leaves the repository.
func escapes(p string) bool {
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || (len(p) > 1 && p[1] == ':') {
		return true
	}
	c := path.Clean(p)
	return c == ".." || strings.HasPrefix(c, "../")
}
