package planparse

import (
	"regexp"
	"strings"
)

// parseTaskHeadings reads superpowers plans ("### Task 3: Name" or
// "## Task 3:") and phased plans ("#### Task 1.2: Name" under "### Phase 1",
// "- [ ] Task 1.2: Name" items, "**Task 1.2: Name**" paragraphs). Fields
// (**Files:** with Create:/Modify:/Test: bullets, **Dependencies:** Task 1.1)
// are read from the task body by scanFields.
func (b *builder) parseTaskHeadings() {
	b.numericRefs = true
	d := b.d
	type cand struct {
		i            int
		lbl, title   string
		heading, box bool
	}
	var cands []cand
	for i := range d.blocks {
		blk := &d.blocks[i]
		switch blk.kind {
		case bHeading:
			if m := taskHeadRe.FindStringSubmatch(blk.text); m != nil {
				cands = append(cands, cand{i: i, lbl: "Task " + m[1], title: m[2], heading: true})
			}
		case bPara:
			if blk.item < 0 {
				if m := taskParaRe.FindStringSubmatch(blk.text); m != nil {
					cands = append(cands, cand{i: i, lbl: "Task " + m[1], title: m[2]})
				}
			}
		case bItem:
			if m := taskHeadRe.FindStringSubmatch(plainText(blk.text)); m != nil && blk.cb >= 0 {
				cands = append(cands, cand{i: i, lbl: "Task " + m[1], title: m[2], box: true})
			}
		}
	}
	// Paragraph tasks run to the next heading; precompute it backwards so
	// the whole pass stays linear.
	nextHead := make([]int, len(d.blocks)+1)
	nextHead[len(d.blocks)] = len(d.src)
	for i := len(d.blocks) - 1; i >= 0; i-- {
		nextHead[i] = nextHead[i+1]
		if d.blocks[i].kind == bHeading {
			nextHead[i] = d.blocks[i].start
		}
	}
	for _, c := range cands {
		blk := &d.blocks[c.i]
		switch {
		case c.heading:
			b.headingTask(c.i, c.lbl, c.title, "")
		case c.box:
			t := b.newTask(c.lbl, cleanTitle(c.title), blk.line, blk.start, d.subtreeEnd(c.i))
			b.placeTask(t, c.i)
			t.setCheckbox(blk.cb, blk.mark, blk.star)
		default:
			end := d.trimBlank(blk.start, nextHead[c.i+1])
			t := b.newTask(c.lbl, cleanTitle(c.title), blk.line, blk.start, end)
			b.placeTask(t, c.i)
		}
	}
}

var (
	checklistIDRe = regexp.MustCompile(`^(?:\*\*)?((?:[A-Z]{1,8}[-_]?)?\d{1,4}(?:\.\d{1,4})*)(?:\*\*)?[.:)]?(?:\*\*)?\s+`)
	stepLabelRe   = regexp.MustCompile(`(?i)^((?:phase|step|stage|milestone)\s+\d{1,4}(?:\.\d{1,4})*)\s*[:.\-–—]\s*`)
	commentIDRe   = regexp.MustCompile(`<!--\s*id:\s*([\w.-]{1,40})\s*-->`)
)

// parseChecklist is the fallback for plain GFM checklists: each checkbox
// item outside criteria lists (Acceptance, Definition of Done, ...) is a
// task; nested checkbox items are sub-tasks of the enclosing one.
func (b *builder) parseChecklist() {
	d := b.d
	itemTask := map[int]*Task{}
	for i := range d.blocks {
		blk := &d.blocks[i]
		if blk.kind != bItem || blk.cb < 0 || b.excluded(i) {
			continue
		}
		text := stampRe.ReplaceAllString(blk.text, "")
		lbl := ""
		if m := commentIDRe.FindStringSubmatch(text); m != nil {
			lbl = m[1]
		}
		t := b.newTask("", "", blk.line, blk.start, d.subtreeEnd(i))
		b.placeTask(t, i)
		t.setCheckbox(blk.cb, blk.mark, blk.star)
		switch {
		case strings.HasPrefix(text, "ID:") && strings.Contains(text, "|"):
			lbl, text = b.pipeFields(t, text)
		default:
			if m := checklistIDRe.FindStringSubmatch(text); m != nil {
				lbl, text = m[1], text[len(m[0]):]
			} else if m := stepLabelRe.FindStringSubmatch(text); m != nil {
				lbl, text = m[1], text[len(m[0]):]
			}
		}
		t.Label = lbl
		t.Title = cleanTitle(text)
		for it := blk.item; it >= 0; it = d.blocks[it].item {
			if p, ok := itemTask[it]; ok {
				b.parent[t] = p
				break
			}
		}
		itemTask[i] = t
	}
}

// pipeFields reads "ID: TASK-3 | Files: `a, b` | Dep: TASK-2 | Description: ..." lines.
func (b *builder) pipeFields(t *Task, text string) (lbl, title string) {
	for _, part := range strings.Split(text, "|") {
		k, v, ok := strings.Cut(part, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "id":
			lbl = v
		case "files", "file":
			for _, f := range splitList(strings.Trim(v, "`")) {
				b.addFile(t, f, ActionTouch, true)
			}
		case "dep", "deps", "depends on", "dependencies":
			if !noneRe.MatchString(v) {
				for _, r := range splitList(v) {
					if r = strings.TrimSpace(r); r != "" {
						b.refs[t] = append(b.refs[t], r)
					}
				}
			}
		case "agent":
			t.Labels = append(t.Labels, "agent:"+v)
		case "description", "desc":
			title = v
		}
	}
	if title == "" {
		title = text
	}
	return lbl, title
}
