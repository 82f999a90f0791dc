package agent

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/planx-dev/planx/planparse"
)

// Spec is what the prompt says about the feature's specification: the
// documents spec-kit and Kiro keep beside the tasks file, and the text of
// the requirements the task cites.
type Spec struct {
	Files []string // repository-relative paths of the spec documents
	// Source is the document the quotes come from (requirements.md, spec.md).
	Source string
	Cited  []Cited
}

// Cited is one requirement a task names, with its text as the spec has it.
type Cited struct {
	Ref  string // as the task writes it: "1.1", "2", "FR-001", "US1"
	Text string // empty when the spec has no such requirement, or when Cut
	// Cut is set when the text was shortened (or left out) to keep the
	// prompt small.
	Cut bool
}

// SpecDocs are the documents of a feature directory the given format keeps
// beside its tasks file, and the directories whose files belong to the spec
// too. The first document is the one requirements are quoted from.
func SpecDocs(f planparse.Format) (docs, dirs []string) {
	switch f {
	case planparse.FormatKiro:
		// research.md is cc-sdd's (Kiro-compatible) discovery notes.
		return []string{"requirements.md", "design.md", "research.md"}, nil
	case planparse.FormatSpecKit:
		return []string{"spec.md", "plan.md", "data-model.md", "research.md", "quickstart.md"}, []string{"contracts"}
	}
	return nil, nil
}

// specRefRe finds what a spec-kit task cites: functional requirements and
// success criteria (FR-001, NFR-002, SC-003).
var specRefRe = regexp.MustCompile(`\b(?:N?FR|SC)-\d+\b`)

// kiroCiteRe finds a Kiro task's requirement trailer, localised too:
// "_Requirements: 1.1, 2.3_", "**Validates: Requirements 1.1**", "_需求: 2.1_".
var kiroCiteRe = regexp.MustCompile(`(?i)(?:requirements?|requisitos?|需求|要件)[ \t]*[*_]*[ \t]*[:：]?[ \t]*[*_]*[ \t]*([0-9][0-9.,;、 \t]*)`)

// Citations are the requirements a task names, in order, each once.
func Citations(f planparse.Format, t *planparse.Task) []string {
	var refs []string
	add := func(r string) {
		r = strings.TrimRight(r, ".")
		if r != "" && !slices.Contains(refs, r) {
			refs = append(refs, r)
		}
	}
	switch f {
	case planparse.FormatKiro:
		for _, m := range kiroCiteRe.FindAllStringSubmatch(t.Body, -1) {
			for _, r := range strings.FieldsFunc(m[1], func(c rune) bool {
				return c == ',' || c == ';' || c == '、' || c == ' ' || c == '\t'
			}) {
				add(r)
			}
		}
	case planparse.FormatSpecKit:
		for _, l := range t.Labels {
			if strings.HasPrefix(l, "US") {
				add(l)
			}
		}
		for _, r := range specRefRe.FindAllString(t.Body, -1) {
			add(r)
		}
	}
	return refs
}

// maxQuoted bounds the quoted requirement text: a huge spec must not crowd
// out the task itself.
const maxQuoted = 4000

// Quote finds each cited requirement in the spec document doc (Kiro's
// requirements.md, spec-kit's spec.md) and returns its text; a reference the
// document does not have gets an empty Text. The quotes together are cut to
// a few KB.
func Quote(f planparse.Format, doc string, refs []string) []Cited {
	var find func(string) string
	switch f {
	case planparse.FormatKiro:
		reqs := ParseRequirements(doc)
		find = func(ref string) string { return quoteKiro(reqs, ref) }
	case planparse.FormatSpecKit:
		find = func(ref string) string { return quoteSpecKit(doc, ref) }
	default:
		return nil
	}
	var out []Cited
	left := maxQuoted
	for _, ref := range refs {
		c := Cited{Ref: ref, Text: find(ref)}
		if len(c.Text) > left {
			c.Text, c.Cut = cutText(c.Text, left), true
		}
		left -= len(c.Text)
		out = append(out, c)
	}
	return out
}

// quoteKiro is the text of a cited "N" (the whole requirement) or "N.M"
// (acceptance criterion M of requirement N, under its requirement's title
// and user story).
func quoteKiro(reqs []Requirement, ref string) string {
	if r := findRequirement(reqs, ref); r != nil {
		return r.String()
	}
	k := strings.LastIndexByte(ref, '.')
	if k <= 0 {
		return ""
	}
	r := findRequirement(reqs, ref[:k])
	if r == nil {
		return ""
	}
	for _, c := range r.Criteria {
		if c.Num == ref[k+1:] {
			return r.head() + "\n" + c.Num + ". " + c.Text
		}
	}
	return ""
}

func findRequirement(reqs []Requirement, num string) *Requirement {
	for i := range reqs {
		if reqs[i].Num == num {
			return &reqs[i]
		}
	}
	return nil
}

// storyHeadRe is a spec-kit user story heading: "### User Story 1 - Title (Priority: P1)".
var storyHeadRe = regexp.MustCompile(`(?i)^#{2,6}\s+user\s+story\s+(\d+)\b`)

// quoteSpecKit is the list item of spec.md that defines a cited FR-001 (with
// its continuation lines), or a cited user story's heading and the paragraph
// that states it.
func quoteSpecKit(doc, ref string) string {
	lines := docLines(doc)
	if n, ok := strings.CutPrefix(ref, "US"); ok {
		for i, l := range lines {
			if m := storyHeadRe.FindStringSubmatch(l); m != nil && m[1] == n {
				return strings.TrimSpace(strings.TrimLeft(l, "#")) + "\n" + paragraphAfter(lines, i+1)
			}
		}
		return ""
	}
	def := regexp.MustCompile(`^\s*(?:[-*]|\d+\.)?\s*[*_]*` + regexp.QuoteMeta(ref) + `\b[*_]*\s*[:：—–-]`)
	for i, l := range lines {
		if def.MatchString(l) {
			item := []string{strings.TrimSpace(l)}
			for _, c := range lines[i+1:] {
				if strings.TrimSpace(c) == "" || !strings.HasPrefix(c, " ") {
					break
				}
				item = append(item, strings.TrimSpace(c))
			}
			return strings.Join(item, "\n")
		}
	}
	return ""
}

// paragraphAfter is the first paragraph at or after line i that is not a
// heading.
func paragraphAfter(lines []string, i int) string {
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	var p []string
	for ; i < len(lines) && strings.TrimSpace(lines[i]) != "" && !strings.HasPrefix(lines[i], "#"); i++ {
		p = append(p, strings.TrimSpace(lines[i]))
	}
	return strings.Join(p, "\n")
}

// cutText shortens s to at most n bytes, at a rune boundary, marking the cut.
func cutText(s string, n int) string {
	const mark = " […]"
	n -= len(mark)
	if n <= 0 {
		return ""
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + mark
}

// writeSpec adds the spec section to a prompt.
func writeSpec(b *strings.Builder, s Spec) {
	if len(s.Files) > 0 {
		b.WriteString("## The feature's spec\n\nThe task was written from these documents beside the plan; read what concerns this task before you start:\n")
		for _, f := range s.Files {
			fmt.Fprintf(b, "- %s\n", f)
		}
		b.WriteString("\n")
	}
	if len(s.Cited) == 0 {
		return
	}
	fmt.Fprintf(b, "## Requirements this task cites (from %s)\n\n", s.Source)
	for _, c := range s.Cited {
		switch {
		case c.Text == "" && c.Cut:
			fmt.Fprintf(b, "- %s: left out to keep this prompt short; read it in %s.\n\n", c.Ref, s.Source)
		case c.Text == "":
			fmt.Fprintf(b, "- %s: not found in %s; do not guess what it says.\n\n", c.Ref, s.Source)
		case c.Cut:
			fmt.Fprintf(b, "%s (shortened; the full text is in %s):\n\n%s\n\n", c.Ref, s.Source, fence(c.Text))
		default:
			fmt.Fprintf(b, "%s:\n\n%s\n\n", c.Ref, fence(c.Text))
		}
	}
}
