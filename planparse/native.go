package planparse

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

var (
	leadLabelsRe = regexp.MustCompile(`^(?:\[[^\]\n]{1,40}\]\s*)+`)
	oneLabelRe   = regexp.MustCompile(`\[([^\]\n]{1,40})\]`)
	dependsOnRe  = regexp.MustCompile(`(?i)\(\s*(?:depends on|after|requires|blocked by)\s*:?\s*([^)]*)\)`)
	backtickRe   = regexp.MustCompile("`([^`\n]+)`")
	inTailRe     = regexp.MustCompile(`(?i)\s(?:in|at|to|under|from)\s+(\S[^()]*?)\s*$`)
)

// parseNative reads planx's own format and spec-kit task lists: T-numbered
// headings ("### T001: Title") or T-numbered list items ("- [ ] T001 [P] Title").
func (b *builder) parseNative(spec bool) {
	b.tids = true
	d := b.d
	if !spec {
		for i := range d.blocks {
			blk := &d.blocks[i]
			if blk.kind != bHeading {
				continue
			}
			m := nativeHeadRe.FindStringSubmatch(blk.text)
			if m == nil {
				if d, ok := badID(blk); ok {
					b.p.Diagnostics = append(b.p.Diagnostics, d)
				}
				continue
			}
			b.headingTask(i, "T"+m[2], m[3], m[1])
		}
		if len(b.p.Tasks) > 0 {
			return
		}
	}
	// planx's own list form always has a checkbox; bare "- T001" bullets are
	// read only in spec-kit files that have no checkbox tasks at all.
	boxed := !spec
	for i := range d.blocks {
		if blk := &d.blocks[i]; blk.kind == bItem && blk.cb >= 0 && specItemRe.MatchString(blk.text) {
			boxed = true
			break
		}
	}
	for i := range d.blocks {
		blk := &d.blocks[i]
		if blk.kind != bItem || (boxed && blk.cb < 0) {
			continue
		}
		m := specItemRe.FindStringSubmatch(blk.text)
		if m == nil {
			if d, ok := badID(blk); ok {
				b.p.Diagnostics = append(b.p.Diagnostics, d)
			}
			continue
		}
		rest := strings.TrimSpace(blk.text[len(m[0]):])
		t := b.newTask("T"+m[1], "", blk.line, blk.start, d.subtreeEnd(i))
		b.placeTask(t, i)
		if blk.cb >= 0 {
			t.setCheckbox(blk.cb, blk.mark, blk.star)
		}
		b.specLine(t, rest)
	}
	if len(b.p.Tasks) == 0 && !spec {
		b.tableTasks(true)
	}
	if spec {
		b.otherSeries()
	}
}

var otherSeriesRe = regexp.MustCompile(`^(?:\*\*)?([A-SU-Z][A-Z]?\d{2,6})(?:\*\*)?:?\s`)

// otherSeries reports checklist items numbered in a series other than T
// (spec-kit forks add A001 audits, Q001 checks, ...): they are not tasks.
func (b *builder) otherSeries() {
	var ids []string
	first := 0
	for i := range b.d.blocks {
		blk := &b.d.blocks[i]
		if blk.kind != bItem || blk.cb < 0 {
			continue
		}
		if m := otherSeriesRe.FindStringSubmatch(blk.text); m != nil {
			if first == 0 {
				first = blk.line
			}
			ids = append(ids, m[1])
		}
	}
	if len(ids) == 0 {
		return
	}
	shown := ids
	if len(shown) > 5 {
		shown = shown[:5]
	}
	b.diag(SeverityInfo, first, fmt.Sprintf("%d checklist item(s) numbered outside the T series are not tasks: %s",
		len(ids), strings.Join(shown, ", ")+map[bool]string{true: ", ...", false: ""}[len(ids) > 5]),
		"renumber them T### if planx should run them")
}

// headingTask adds a task whose heading is block i. mark is the checkbox
// character written in the heading ("### [ ] T001: ..."), or "".
func (b *builder) headingTask(i int, lbl, title, mark string) *Task {
	blk := &b.d.blocks[i]
	t := b.newTask(lbl, title, blk.line, blk.start, b.sectionEnd(i))
	b.placeTask(t, i)
	if mark != "" {
		eol := b.d.lineStart(blk.line + 1)
		if k := bytes.Index(b.d.src[blk.pos:eol], []byte("["+mark+"]")); k >= 0 {
			t.setCheckbox(blk.pos+k+1, mark[0], false)
		}
	}
	low := strings.ToLower(title)
	if strings.Contains(title, "✅") || strings.Contains(low, "**complete**") || strings.HasSuffix(low, "(done)") {
		t.Status = StatusDone
	}
	title, t.Parallel = parallelMark(title)
	t.Title = cleanTitle(title)
	return t
}

// parallelMark reads the [P] a heading's title begins or ends with ("###
// T002 [P]: Two", "### T002: Two [P]"), as a checklist line's [P] right
// after its ID: the task may share a wave. It returns the title without it.
func parallelMark(title string) (string, bool) {
	t := strings.TrimSpace(title)
	switch {
	case len(t) >= 3 && strings.EqualFold(t[:3], "[P]"):
		t = strings.TrimLeft(t[3:], " \t:.-–—")
	case len(t) >= 3 && strings.EqualFold(t[len(t)-3:], "[P]"):
		t = strings.TrimSpace(t[:len(t)-3])
	default:
		return title, false
	}
	return t, true
}

var statusSuffixRe = regexp.MustCompile(`(?i)\s*[-–—]?\s*\**\s*(?:complete|completed|done)\s*\**\s*$`)

func cleanTitle(s string) string {
	s = strings.ReplaceAll(s, "✅", "")
	// The regexp backtracks over every title; most have no status suffix.
	if statusSuffixHint(s) {
		s = statusSuffixRe.ReplaceAllString(s, "")
	}
	return plainText(trimTrailJunk(s))
}

// statusSuffixHint is a cheap necessary condition for statusSuffixRe: s
// ends, before spaces and asterisks, with "done", "complete" or "completed".
func statusSuffixHint(s string) bool {
	s = strings.TrimRight(s, " \t\n\f\r*")
	s = strings.ToLower(s[max(0, len(s)-len("completed")):])
	return strings.HasSuffix(s, "done") || strings.HasSuffix(s, "complete") || strings.HasSuffix(s, "completed")
}

// trimTrailJunk drops trailing ASCII whitespace and status emoji (✅ ⚠️ 🎯)
// in one pass from the end; it replaced the regexp [\s✅⚠️🎯]+$.
func trimTrailJunk(s string) string {
	return strings.TrimRightFunc(s, func(r rune) bool {
		switch r {
		case '\t', '\n', '\f', '\r', ' ', '✅', '⚠', '\uFE0F', '🎯':
			return true
		}
		return false
	})
}

// placeTask records the phase a task belongs to.
func (b *builder) placeTask(t *Task, i int) {
	h := b.phase[i]
	if h < 0 {
		return
	}
	t.Phase = plainText(b.d.blocks[h].text)
	if !b.phaseSeen[h] {
		b.phaseSeen[h] = true
		intro := ""
		if hs, ts := b.d.blocks[h].start, b.d.blocks[i].start; hs <= ts {
			intro = strings.TrimSpace(string(b.d.src[hs:b.d.trimBlank(hs, ts)]))
		}
		b.p.Phases = append(b.p.Phases, Phase{Title: t.Phase, Line: b.d.blocks[h].line, Intro: intro})
	}
}

// specLine reads the rest of a spec-kit line after the ID: bracket labels,
// "(depends on ...)" and the file paths the description ends with.
func (b *builder) specLine(t *Task, rest string) {
	if m := leadLabelsRe.FindString(rest); m != "" {
		for _, l := range oneLabelRe.FindAllStringSubmatch(m, -1) {
			l := strings.TrimSpace(l[1])
			if strings.EqualFold(l, "P") {
				t.Parallel = true
			} else if l != "" {
				t.Labels = append(t.Labels, l)
			}
		}
		rest = strings.TrimSpace(rest[len(m):])
	}
	if strings.HasPrefix(rest, "(P)") {
		t.Parallel = true
		rest = strings.TrimSpace(rest[3:])
	}
	for _, m := range dependsOnRe.FindAllStringSubmatch(rest, -1) {
		b.addRefs(t, m[1])
	}
	desc := strings.TrimSpace(dependsOnRe.ReplaceAllString(rest, ""))
	desc = trimTrailJunk(desc)
	t.Title = cleanTitle(desc)
	for _, m := range backtickRe.FindAllStringSubmatch(desc, -1) {
		if p := cleanPath(m[1]); pathLike(p) && !strings.Contains(m[1], " ") {
			b.addFile(t, p, ActionTouch, false)
		}
	}
	if m := inTailRe.FindStringSubmatch(desc); m != nil {
		for _, part := range strings.FieldsFunc(strings.ReplaceAll(m[1], " and ", ","), func(r rune) bool { return r == ',' }) {
			part = strings.TrimSpace(part)
			if strings.Contains(part, " ") && !strings.HasPrefix(part, "`") {
				break
			}
			if p := cleanPath(part); pathLike(p) {
				b.addFile(t, p, ActionTouch, false)
			}
		}
	}
}
