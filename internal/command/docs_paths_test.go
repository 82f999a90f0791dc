package command

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// TestDocsPaths fails when README.md, a chapter of docs/ or bench/README.md
// names a file of this repository that does not exist: a package moved, a
// script renamed, a chapter split, and the docs still point at the old place.
//
// What counts as a path of this repository, outside fenced code blocks
// (which show the reader's plans, configs and commands):
//   - the target of a relative markdown link ([text](judge.md)), resolved
//     from the document's directory, and its #anchor, which must be a
//     heading of that file (of the document itself for [text](#anchor));
//   - a word holding a "/" that starts with a top-level entry of the
//     repository (`go test ./internal/command`, `.ci/run`, docs/judge.md) or
//     ends in .go or .txtar (internal/run/drive/commitpath.go), resolved
//     from the root (and, for a chapter of docs/, from docs/ when it does not
//     start with a top-level entry);
//   - in an inline code span, also a word that starts with the name of a
//     package directory under internal/ (`executor/commitpath.go`, `review/`):
//     a path written from a package's old place.
//
// Not paths: URLs, flags, home (~/) and absolute paths, anything under .git/
// or refs/, globs and Go patterns (*, ?, [, {, ...), placeholders (<run-id>,
// …, $VAR), and examples of the reader's files (`scripts/deploy.sh`,
// `src/Hero.tsx`: no directory of this repository's, another extension).
// An example that looks like a path here is listed in docExamplePaths.
func TestDocsPaths(t *testing.T) {
	root := filepath.Join("..", "..")
	docs := []string{"README.md", "bench/README.md"}
	chapters, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chapters {
		docs = append(docs, "docs/"+filepath.Base(c))
	}
	names, err := readRepoNames(root)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, doc := range docs {
		text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(doc)))
		if err != nil {
			t.Fatal(err)
		}
		for _, ref := range docPaths(doc, string(text), names) {
			checked++
			if problem := ref.check(root); problem != "" {
				t.Errorf("%s:%d %s", doc, ref.line, problem)
			}
		}
	}
	t.Logf("%d paths checked in %d documents", checked, len(docs))
	if checked < 20 {
		t.Errorf("only %d paths found in %d documents: the scan is broken", checked, len(docs))
	}
}

// docExamplePaths are paths in the reader's repository that the docs name as
// examples in inline code: where to save a plan, files a plan's task makes.
var docExamplePaths = map[string]bool{
	"memory-bank/plan/x.md": true, // the quick start's plan, saved by the reader
	"memory-bank/execute":   true, // log_dir's default, made by the reader's first run
}

// docPathExts are the extensions of this repository's code and test
// scripts. (Examples of the reader's files, `scripts/deploy.sh`,
// `src/Hero.tsx`, `specs/001-foo/tasks.md`, have other extensions or no
// directory of this repository's in front.)
var docPathExts = []string{".go", ".txtar"}

type docRef struct {
	line   int
	shown  string   // as the doc writes it, less the punctuation around it
	tries  []string // slash paths from the root; one must exist
	anchor string   // a link's #anchor: a heading of the file it names
}

// check returns what is wrong with the reference, or "".
func (r docRef) check(root string) string {
	for _, p := range r.tries {
		full := filepath.Join(root, filepath.FromSlash(p))
		if _, err := os.Stat(full); err != nil {
			continue
		}
		if r.anchor == "" || !strings.HasSuffix(p, ".md") {
			return ""
		}
		text, err := os.ReadFile(full)
		if err != nil {
			return err.Error()
		}
		if !headingSlugs(string(text))[r.anchor] {
			return fmt.Sprintf("names %s, and %s has no heading #%s", r.shown, p, r.anchor)
		}
		return ""
	}
	return fmt.Sprintf("names %s, which does not exist in the repository", r.shown)
}

// repoNames are the names a path of this repository starts with: its
// top-level entries (but .git), and the names of the Go package directories
// under internal/, for a path written from a package's old place
// (`executor/commitpath.go` for internal/run/drive/commitpath.go).
type repoNames struct{ top, pkgs map[string]bool }

func readRepoNames(root string) (repoNames, error) {
	names := repoNames{top: map[string]bool{}, pkgs: map[string]bool{}}
	entries, err := os.ReadDir(root)
	if err != nil {
		return names, err
	}
	for _, e := range entries {
		if e.Name() != ".git" {
			names.top[e.Name()] = true
		}
	}
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(root, p)
		if !d.IsDir() && strings.HasPrefix(rel, "internal"+string(filepath.Separator)) &&
			strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			if dir := filepath.Base(filepath.Dir(p)); !names.top[dir] {
				names.pkgs[dir] = true
			}
		}
		return nil
	})
	return names, err
}

var (
	mdLink    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	fenceOpen = regexp.MustCompile("^(`{3,}|~{3,})")
)

// docPaths returns the repository paths doc (a slash path from the root)
// names, by line.
func docPaths(doc, text string, names repoNames) []docRef {
	dir := path.Dir(doc)
	var refs []docRef
	var f fences
	for i, line := range strings.Split(text, "\n") {
		n := i + 1
		if f.code(line) {
			continue
		}
		spans, prose := codeSpans(line)
		for _, span := range spans {
			refs = append(refs, wordPaths(n, dir, span, names, true)...)
		}
		for _, m := range mdLink.FindAllStringSubmatch(prose, -1) {
			if strings.Contains(m[1], "://") || strings.HasPrefix(m[1], "mailto:") {
				continue
			}
			target, anchor, _ := strings.Cut(m[1], "#")
			p := doc
			if target != "" {
				p = path.Join(dir, target)
			}
			refs = append(refs, docRef{line: n, shown: m[1], tries: []string{p}, anchor: anchor})
		}
		refs = append(refs, wordPaths(n, dir, mdLink.ReplaceAllString(prose, "]"), names, false)...)
	}
	return refs
}

// fences follows a markdown file's fenced code blocks line by line.
type fences struct{ open string }

// code reports whether line opens, is inside or closes a fenced block.
func (f *fences) code(line string) bool {
	trimmed := strings.TrimSpace(line)
	if f.open != "" {
		if strings.HasPrefix(trimmed, f.open) && strings.Trim(trimmed, f.open[:1]) == "" { // as long or longer
			f.open = ""
		}
		return true
	}
	// A backtick fence's info string has no backtick (CommonMark), so a
	// line starting "```` ```bash ```` block" starts with a code span.
	if m := fenceOpen.FindString(trimmed); m != "" && !(m[0] == '`' && strings.Contains(trimmed[len(m):], "`")) {
		f.open = m
		return true
	}
	return false
}

// headingSlugs returns the anchors GitHub gives a markdown file's headings:
// lower case, punctuation but - and _ dropped, spaces made -, a repeated
// one numbered (-1, -2).
func headingSlugs(text string) map[string]bool {
	slugs := map[string]bool{}
	seen := map[string]int{}
	var f fences
	for _, line := range strings.Split(text, "\n") {
		if f.code(line) {
			continue
		}
		h := strings.TrimLeft(line, "#")
		if len(h) == len(line) || len(line)-len(h) > 6 || !strings.HasPrefix(h, " ") {
			continue
		}
		h = mdLink.ReplaceAllString(strings.TrimSpace(strings.TrimRight(h, "# ")), "]")
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		slug := b.String()
		if k := seen[slug]; k > 0 {
			slugs[fmt.Sprintf("%s-%d", slug, k)] = true
		} else {
			slugs[slug] = true
		}
		seen[slug]++
	}
	return slugs
}

// codeSpans returns the contents of line's inline code spans and the line
// with each span replaced by a space. A span opens with a run of backticks
// and closes with the next run of the same length; a run that is never
// closed is text.
func codeSpans(line string) (spans []string, prose string) {
	var rest strings.Builder
	for {
		i := strings.IndexByte(line, '`')
		if i < 0 {
			rest.WriteString(line)
			return spans, rest.String()
		}
		n := i
		for n < len(line) && line[n] == '`' {
			n++
		}
		open := line[i:n]
		closed := false
		for j := n; j < len(line); {
			k := strings.IndexByte(line[j:], '`')
			if k < 0 {
				break
			}
			k += j
			m := k
			for m < len(line) && line[m] == '`' {
				m++
			}
			if m-k == len(open) {
				rest.WriteString(line[:i] + " ")
				spans = append(spans, line[n:k])
				line, closed = line[m:], true
				break
			}
			j = m
		}
		if !closed {
			rest.WriteString(line[:n])
			line = line[n:]
		}
	}
}

// wordPaths returns the repository paths among the words of text, on line n
// of a doc in dir.
func wordPaths(n int, dir, text string, names repoNames, code bool) []docRef {
	var refs []docRef
	for _, word := range strings.Fields(text) {
		if p, ok := repoPath(word, names, code); ok {
			tries := []string{p}
			if first, _, _ := strings.Cut(p, "/"); dir != "." && !names.top[first] {
				tries = append(tries, path.Join(dir, p))
			}
			refs = append(refs, docRef{line: n, shown: strings.TrimRight(strings.TrimLeft(word, `"'(`), `"'(),;:.`), tries: tries})
		}
	}
	return refs
}

// repoPath says whether a word of the docs names a file of this
// repository, and which (a clean slash path).
func repoPath(word string, names repoNames, code bool) (string, bool) {
	if strings.Contains(word, "...") {
		return "", false // a Go pattern, or an elided path
	}
	w := strings.TrimRight(strings.TrimLeft(word, `"'(`), `"'(),;:.`)
	if w == "" || !strings.Contains(w, "/") ||
		strings.Contains(w, "://") || strings.HasPrefix(w, "-") ||
		strings.HasPrefix(w, "~") || strings.HasPrefix(w, "/") ||
		strings.HasPrefix(w, "../") ||
		strings.ContainsAny(w, "*?[]{}<>$%…@=:|\\") {
		return "", false
	}
	w = strings.TrimPrefix(w, "./")
	first, _, _ := strings.Cut(w, "/")
	if first == ".git" || first == "refs" {
		return "", false
	}
	if !names.top[first] && !(code && names.pkgs[first]) && !hasExt(w, docPathExts) {
		return "", false
	}
	p := path.Clean(w)
	if docExamplePaths[p] {
		return "", false
	}
	return p, true
}

func hasExt(w string, exts []string) bool {
	for _, e := range exts {
		if strings.HasSuffix(w, e) {
			return true
		}
	}
	return false
}

// TestDocsPathsCatches checks the scan itself: it finds a made-up path in
// every form the docs write one, and lets the non-paths through.
func TestDocsPathsCatches(t *testing.T) {
	names := repoNames{
		top:  map[string]bool{"internal": true, "docs": true, "bench": true, "cmd": true, ".ci": true, "README.md": true},
		pkgs: map[string]bool{"executor": true, "review": true, "wave": true},
	}
	doc := strings.Join([]string{
		"See `internal/run/wave/nosuch.go` and [the judge](nosuch.md).",
		"Run `go test ./internal/nosuch -run X` or `bash bench/nosuch.sh --files 2`.",
		"A script `testdata/script/nosuch.txtar`, in prose internal/nosuch.go and (executor/nosuch.go).",
		"Old places: `executor/nosuch.go`, `review/`.",
		"```yaml",
		"command: `internal/in/a/fence.go` [x](fence.md)",
		"```",
		"```` ```bash ```` is a code span: `internal/nosuch2.go`.",
		"Not paths: `--gate name=cmd/x`, `~/.config/x.md`, `.git/planx/runs/<id>/x.log`, `refs/planx/runs/x`,",
		"`internal/run/...`, `docs/*.md`, `https://example.com/a.md`, `$GOROOT/src/testing`, `/usr/bin/time`,",
		"`origin/main..HEAD`, `git show <ref>:path`, `memory-bank/plan/x.md`, [web](https://x.org/a.md), [here](#gates),",
		"`#### [NEW] [Hero.tsx](src/Hero.tsx)`, `scripts/deploy.sh`, agent/manual, planx/floor, and/or.",
	}, "\n")
	var got []string
	for _, r := range docPaths("docs/x.md", doc, names) {
		got = append(got, fmt.Sprintf("%d:%s", r.line, r.shown))
	}
	want := "1:internal/run/wave/nosuch.go 1:nosuch.md 2:./internal/nosuch 2:bench/nosuch.sh " +
		"3:testdata/script/nosuch.txtar 3:internal/nosuch.go 3:executor/nosuch.go 4:executor/nosuch.go 4:review/ 8:internal/nosuch2.go " +
		"11:#gates"
	if strings.Join(got, " ") != want {
		t.Errorf("paths found:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	slugs := headingSlugs("# Gates and `.planx.yaml`\n## planx hook: verify before every push\n" +
		"```yaml\n# .planx.yaml\n```\n### --rerun-gates: re-run\n## Results\n## Results\n")
	for _, s := range []string{"gates-and-planxyaml", "planx-hook-verify-before-every-push", "--rerun-gates-re-run", "results", "results-1"} {
		if !slugs[s] {
			t.Errorf("no anchor #%s among %v", s, slugs)
		}
	}
	if slugs["planxyaml"] {
		t.Errorf("a comment in a fenced block made a heading: %v", slugs)
	}
}
