package agent

import (
	"regexp"
	"strings"
)

// Requirement is one requirement of a Kiro requirements.md:
//
//	### Requirement 1: Title
//
//	**User Story:** As a …, I want …, so that …
//
//	#### Acceptance Criteria
//
//	1. WHEN … THEN the system SHALL …
type Requirement struct {
	Num      string // "1"
	Title    string // what follows the number, if anything
	Story    string // the user story sentence
	Criteria []Criterion
}

// Criterion is one numbered acceptance criterion of a requirement.
type Criterion struct {
	Num  string // "2" in requirement 1: cited as 1.2
	Text string
}

var (
	// reqHeadRe is a requirement heading, localised as Kiro writes it in
	// other languages: "### Requirement 1", "### Requirement 2: Title",
	// "### 要件 1", "### 需求 1", "### Requisito 1 - Título".
	reqHeadRe = regexp.MustCompile(`(?i)^(#{2,6})\s+(?:requirements?|req\.?|要件|需求|requisitos?)\s*(\d+(?:\.\d+)*)\s*(?:[:：.\-–—]\s*(.*))?$`)
	// storyRe is the user story line, "**User Story:** As a …".
	storyRe = regexp.MustCompile(`(?i)^\*\*(?:user story|ユーザーストーリー|用户故事|使用者故事|historia de usuario)\s*[:：]?\s*\*\*\s*[:：]?\s*(.*)$`)
	// criterionRe is a numbered acceptance criterion, "1. WHEN …", at the
	// margin: an indented numbered list is part of the criterion above it.
	criterionRe = regexp.MustCompile(`^(\d+)[.)]\s+(.*)$`)
	headingRe   = regexp.MustCompile(`^(#{1,6})\s`)
)

// ParseRequirements reads the requirements of a Kiro requirements.md, in
// order. Text in code fences is skipped; a criterion's indented continuation
// lines and sub-bullets are part of it.
func ParseRequirements(md string) []Requirement {
	var (
		reqs  []Requirement
		cur   *Requirement
		level int
		fence string
	)
	for _, line := range docLines(md) {
		trim := strings.TrimSpace(line)
		if f := fenceMarker(trim); f != "" && (fence == "" || strings.HasPrefix(trim, fence)) {
			if fence == "" {
				fence = f
			} else {
				fence = ""
			}
			continue
		}
		if fence != "" {
			continue
		}
		if m := reqHeadRe.FindStringSubmatch(trim); m != nil {
			reqs = append(reqs, Requirement{Num: m[2], Title: strings.TrimSpace(m[3])})
			cur, level = &reqs[len(reqs)-1], len(m[1])
			continue
		}
		if cur == nil {
			continue
		}
		if m := headingRe.FindStringSubmatch(trim); m != nil {
			if len(m[1]) <= level {
				cur = nil // a sibling section ends the requirement
			}
			continue
		}
		readRequirementLine(cur, line, trim)
	}
	return reqs
}

// readRequirementLine adds one line of a requirement's text to it.
func readRequirementLine(r *Requirement, line, trim string) {
	if m := storyRe.FindStringSubmatch(trim); m != nil && r.Story == "" {
		r.Story = strings.TrimSpace(m[1])
		return
	}
	if m := criterionRe.FindStringSubmatch(line); m != nil {
		r.Criteria = append(r.Criteria, Criterion{Num: m[1], Text: strings.TrimSpace(m[2])})
		return
	}
	if trim == "" || len(r.Criteria) == 0 || line == trim {
		return // only indented lines continue a criterion
	}
	c := &r.Criteria[len(r.Criteria)-1]
	c.Text += "\n   " + trim
}

// head is the requirement's heading and user story, the context any of its
// criteria is read in.
func (r *Requirement) head() string {
	s := "Requirement " + r.Num
	if r.Title != "" {
		s += ": " + r.Title
	}
	if r.Story != "" {
		s += "\nUser story: " + r.Story
	}
	return s
}

// String is the whole requirement: heading, user story and every criterion.
func (r *Requirement) String() string {
	var b strings.Builder
	b.WriteString(r.head())
	for _, c := range r.Criteria {
		b.WriteString("\n" + c.Num + ". " + c.Text)
	}
	return b.String()
}

// docLines splits a markdown document into lines, CRLF or LF.
func docLines(md string) []string {
	return strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n")
}

// fenceMarker is the fence a line opens or closes (``` or ~~~, any longer
// run too), or "".
func fenceMarker(trim string) string {
	for _, c := range []string{"`", "~"} {
		if strings.HasPrefix(trim, c+c+c) {
			return strings.Repeat(c, len(trim)-len(strings.TrimLeft(trim, c)))
		}
	}
	return ""
}
