package planparse

import (
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
)

var (
	taskMasterTextRe = regexp.MustCompile(`(?m)\A\s*# Task ID:\s*\d+`)
	phaseRe          = regexp.MustCompile(`(?i)^(?:phase|milestone|stage|chunk|wave|part|sprint|iteration|work package|user story)\b`)
	// Lists under these headings or lead-ins are criteria, not work.
	excludeRe = regexp.MustCompile(`(?i)^(?:acceptance|readiness|requirements|verification|validation|pre-?flight|quality gates?|success criteria|exit criteria|definition of (?:done|ready)|dod|dor|done when)\b|\b(?:dod|dor|definition of done|definition of ready|acceptance criteria|quality gates|success criteria)\b|\S\s+check-?list\s*$`)
	// Task lines of each dialect, matched on item or heading text.
	specItemRe    = regexp.MustCompile(`^(?:\*\*)?T(\d{1,6})(?:\*\*)?:?(?:\s|$)`)
	nativeHeadRe  = regexp.MustCompile(`^(?:\[([ xX\-])\]\s+)?(?:(?:Task|Subtask)\s+)?T(\d{1,6})(?:\s*[:.\-–—]\s*|\s+|$)(.*)$`)
	kiroItemRe    = regexp.MustCompile(`^(\d{1,4}(?:\.\d{1,4})*)(\.?)(?:\s+|$)(.*)$`)
	kiroTrailerRe = regexp.MustCompile(`(?m)^\s*(?:[-*]\s+)?_[^_\n:]{1,30}[:：]`)
	taskHeadRe    = regexp.MustCompile(`^(?:[^\p{L}\p{N}\s]+\s*)?(?:Task|TASK)\s+(\d{1,4}(?:[.\-]\d{1,4})*)(?:\s*[:.\-–—]\s*|\s+|$)(.*)$`)
	taskParaRe    = regexp.MustCompile(`^\*\*(?:Task|TASK)\s+(\d{1,4}(?:[.\-]\d{1,4})*)\s*[:.\-–—]\s*(.*?)\s*\*\*\s*$`)
)

// label normalises a heading or lead-in for the exclusion and phase tests.
func label(s string) string {
	s = plainText(s)
	s = strings.TrimLeftFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r)
	})
	return strings.TrimSpace(strings.TrimRight(s, ": "))
}

// sections computes, for every block, the heading that names its phase.
func (b *builder) sections() {
	d := b.d
	b.phase = make([]int, len(d.blocks))
	b.phaseSeen = map[int]bool{}
	// Heading labels are tested once each, not once per block below them.
	isPhase := make(map[int]bool)
	b.excl = make(map[int]bool)
	for i := range d.blocks {
		if d.blocks[i].kind == bHeading {
			l := label(d.blocks[i].text)
			isPhase[i] = phaseRe.MatchString(l)
			b.excl[i] = excludeRe.MatchString(l)
		}
	}
	var stack []int
	for i := range d.blocks {
		blk := &d.blocks[i]
		if blk.kind == bHeading {
			for len(stack) > 0 && d.blocks[stack[len(stack)-1]].level >= blk.level {
				stack = stack[:len(stack)-1]
			}
		}
		b.phase[i] = -1
		for j := len(stack) - 1; j >= 0; j-- {
			if isPhase[stack[j]] {
				b.phase[i] = stack[j]
				break
			}
		}
		if b.phase[i] < 0 {
			for j := len(stack) - 1; j >= 0; j-- {
				if d.blocks[stack[j]].level == 2 {
					b.phase[i] = stack[j]
					break
				}
			}
		}
		b.stack = append(b.stack, nil)
		if blk.kind == bHeading {
			stack = append(stack, i)
		}
	}
	// Exclusion needs the whole enclosing chain; store it only for items.
	// The same pass finds where each heading's section ends.
	b.hend = make([]int, len(d.blocks))
	stack = stack[:0]
	for i := range d.blocks {
		blk := &d.blocks[i]
		if blk.kind == bHeading {
			for len(stack) > 0 && d.blocks[stack[len(stack)-1]].level >= blk.level {
				b.hend[stack[len(stack)-1]] = i
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, i)
			continue
		}
		if blk.kind == bItem {
			b.stack[i] = append([]int(nil), stack...)
		}
	}
	for _, h := range stack {
		b.hend[h] = len(d.blocks)
	}
}

// sectionEnd is the offset where heading i's section ends: the next heading
// of the same or a higher level.
func (b *builder) sectionEnd(i int) int {
	end := len(b.d.src)
	if n := b.hend[i]; n < len(b.d.blocks) {
		end = b.d.blocks[n].start
	}
	return b.d.trimBlank(b.d.blocks[i].start, end)
}

// excluded reports whether item i sits in a criteria list (Acceptance
// Criteria, Definition of Done, ...) rather than in a list of work.
func (b *builder) excluded(i int) bool {
	for _, h := range b.stack[i] {
		if b.excl[h] {
			return true
		}
	}
	if lead := b.leadIn(i); lead != "" && excludeRe.MatchString(label(lead)) {
		return true
	}
	return b.criteriaItem(b.d.blocks[i].item)
}

// criteriaItem reports whether item it, or an item above it, is a criteria
// item: its text or the lead-in of its list names criteria. Memoised, so
// that deep nesting costs one test per item, not one per item and level.
func (b *builder) criteriaItem(it int) bool {
	if it < 0 {
		return false
	}
	if b.critMemo == nil {
		b.critMemo = make([]int8, len(b.d.blocks))
	}
	if m := b.critMemo[it]; m != 0 {
		return m > 0
	}
	lead := b.leadIn(it)
	yes := (lead != "" && excludeRe.MatchString(label(lead))) || excludeRe.MatchString(label(b.d.blocks[it].text)) ||
		b.criteriaItem(b.d.blocks[it].item)
	b.critMemo[it] = -1
	if yes {
		b.critMemo[it] = 1
	}
	return yes
}

// leadIn returns the paragraph line introducing the list that holds item i.
func (b *builder) leadIn(i int) string {
	d := b.d
	j := d.blocks[i].up
	if j < 1 || d.blocks[j].kind != bOther {
		return ""
	}
	if p := &d.blocks[j-1]; p.kind == bPara && p.next == j && p.item == d.blocks[j].item {
		return p.last
	}
	return ""
}

// detect picks the dialect from the document's shape.
func (b *builder) detect() Format {
	c := b.countMarkers()
	switch {
	case c.nativeHeads > 0 && c.nativeHeads >= c.specBoxes:
		return FormatNative
	case b.hasTodos():
		return FormatCursor
	case b.hasGSDTasks():
		return FormatGSD
	case c.specBoxes > 0 && b.planxFrontMatter():
		return FormatNative
	case c.specBoxes > 0 && c.runSteps > 0 && !b.specKitShaped():
		// `run` steps are planx's own: a T-numbered checklist with them is
		// native, unless the file is shaped as spec-kit's tasks.md.
		return FormatNative
	case c.specBoxes > 0 && c.specBoxes*2 >= c.boxes:
		return FormatSpecKit
	case c.kiro > 0 && (c.kiro*2 >= c.boxes || kiroTrailerRe.Match(b.d.src)):
		return FormatKiro
	case c.specBoxes > 0:
		return FormatSpecKit
	case c.taskHeads > 0:
		return b.headingDialect()
	case c.taskItems > 0:
		return FormatPhased
	case c.specBullets >= 3:
		// Bare "- T001 ..." bullets (spec-kit without checkboxes); a stray
		// "- **T5**: note" in prose is not enough.
		return FormatSpecKit
	case c.workBoxes > 0 && b.tableTasks(false) == 0:
		return FormatChecklist
	case b.tableTasks(false) == 0 && (b.hasLabelledLists() || b.hasStageBullets() || b.hasFileHeadings()):
		return FormatPhased
	}
	return FormatNative
}

// markers counts the task markers of each dialect in a document.
type markers struct {
	runSteps, nativeHeads, specBoxes, specBullets, kiro, taskHeads, taskItems int
	boxes, workBoxes                                                          int // checkboxes; those outside criteria lists
}

func (b *builder) countMarkers() markers {
	var c markers
	for i := range b.d.blocks {
		blk := &b.d.blocks[i]
		switch blk.kind {
		case bHeading:
			if nativeHeadRe.MatchString(blk.text) {
				c.nativeHeads++
			}
			if taskHeadRe.MatchString(blk.text) {
				c.taskHeads++
			}
		case bPara:
			if taskParaRe.MatchString(blk.text) {
				c.taskHeads++
			}
		case bFence:
			if _, ok := runInfo(blk.info); ok {
				c.runSteps++
			}
		case bItem:
			if specItemRe.MatchString(blk.text) {
				if blk.cb >= 0 {
					c.specBoxes++
				} else {
					c.specBullets++
				}
			}
			if blk.cb < 0 {
				continue
			}
			c.boxes++
			if !b.excluded(i) {
				c.workBoxes++
			}
			if kiroItemRe.MatchString(blk.text) {
				c.kiro++
			}
			if taskHeadRe.MatchString(plainText(blk.text)) {
				c.taskItems++
			}
		}
	}
	return c
}

// planxFrontMatter reports planx's own front matter keys: they say the
// list form is planx's (not spec-kit's); they do not turn a Kiro or phased
// plan into a native one.
func (b *builder) planxFrontMatter() bool {
	for _, k := range planxFrontMatterKeys {
		if _, ok := b.p.FrontMatter[k]; ok {
			return true
		}
	}
	return false
}

// headingDialect tells superpowers plans ("Task 3:") from phased ones ("Task 1.2:").
func (b *builder) headingDialect() Format {
	for i := range b.d.blocks {
		blk := &b.d.blocks[i]
		var m []string
		switch blk.kind {
		case bHeading:
			m = taskHeadRe.FindStringSubmatch(blk.text)
		case bPara:
			m = taskParaRe.FindStringSubmatch(blk.text)
		}
		if m != nil && strings.ContainsAny(m[1], ".-") {
			return FormatPhased
		}
	}
	return FormatSuperpowers
}

var (
	specPhaseRe = regexp.MustCompile(`(?i)^phase\s+\d+\s*[:.\-–—]`)
	storyRe     = regexp.MustCompile(`\[US\d+\]`)
)

// specKitShaped reports spec-kit's marks on a T-numbered checklist: a file
// named tasks.md, "Phase N:" headings or [US1] story labels.
func (b *builder) specKitShaped() bool {
	if strings.EqualFold(filepath.Base(b.p.Path), "tasks.md") {
		return true
	}
	for i := range b.d.blocks {
		blk := &b.d.blocks[i]
		if (blk.kind == bHeading && specPhaseRe.MatchString(label(blk.text))) || (blk.kind == bItem && storyRe.MatchString(blk.text)) {
			return true
		}
	}
	return false
}

// hasLabelledLists reports a list under a "Tasks:" label.
func (b *builder) hasLabelledLists() bool {
	for i := range b.d.blocks {
		if b.d.blocks[i].kind == bItem && b.underTasksLabel(i) {
			return true
		}
	}
	return false
}

// hasStageBullets reports a top-level bullet right under a numbered stage heading.
func (b *builder) hasStageBullets() bool {
	d := b.d
	for i := range d.blocks {
		blk := &d.blocks[i]
		if blk.kind == bItem && blk.item < 0 {
			if h := b.phase[i]; h >= 0 && b.nearestHeading(i) == h && stageHeadRe.MatchString(label(d.blocks[h].text)) && !b.excluded(i) {
				return true
			}
		}
	}
	return false
}
