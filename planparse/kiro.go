package planparse

import (
	"regexp"
	"strings"
)

// Kiro trailers: "_Requirements: 1.1, 2.3_", "_Depends: 1.2_", "_Boundary: api_",
// also localised ("_需求: 1.1_", "_Requisitos: 2.1_").
var kiroFieldRe = regexp.MustCompile(`^(?:[-*]\s+)?_([^_:：]{1,30})[:：]\s*(.*?)_?\s*(?:\*\(.*\)\*)?$`)

// parseKiro reads Kiro / cc-sdd task lists: "- [ ] 1. Title" with sub-tasks
// "- [ ] 1.1 Title", flat or indented, "(P)" parallel markers, "[ ]*" for
// optional and "[-]" for in-progress tasks. Sub-tasks point at their parent.
func (b *builder) parseKiro() {
	b.numericRefs = true
	d := b.d
	byLabel := map[string]*Task{}
	itemTask := map[int]*Task{}
	for i := range d.blocks {
		blk := &d.blocks[i]
		if blk.kind != bItem || blk.cb < 0 {
			continue
		}
		m := kiroItemRe.FindStringSubmatch(blk.text)
		if m == nil {
			continue
		}
		lbl := m[1]
		rest := strings.TrimSpace(m[3])
		t := b.newTask(lbl, "", blk.line, blk.start, d.subtreeEnd(i))
		b.placeTask(t, i)
		t.setCheckbox(blk.cb, blk.mark, blk.star)
		if strings.HasPrefix(rest, "(P)") {
			t.Parallel = true
			rest = strings.TrimSpace(rest[3:])
		}
		if strings.HasSuffix(rest, "(P)") {
			t.Parallel = true
			rest = strings.TrimSpace(strings.TrimSuffix(rest, "(P)"))
		}
		t.Title = cleanTitle(rest)
		// The enclosing checkbox task is the parent when sub-tasks are
		// indented; flat layouts fall back to the label ("1.2" -> "1").
		for it := blk.item; it >= 0; it = d.blocks[it].item {
			if p, ok := itemTask[it]; ok {
				b.parent[t] = p
				break
			}
		}
		if _, ok := b.parent[t]; !ok {
			if k := strings.LastIndexByte(lbl, '.'); k > 0 {
				if p, ok := byLabel[lbl[:k]]; ok {
					b.parent[t] = p
				} else if p, ok := byLabel[lbl[:k]+".0"]; ok {
					b.parent[t] = p
				}
			}
		}
		itemTask[i] = t
		if _, dup := byLabel[lbl]; !dup {
			byLabel[lbl] = t
		}
	}
	b.post = b.kiroTrailers
}

// kiroTrailers reads the italic trailer lines of a Kiro task body.
func (b *builder) kiroTrailers(t *Task, first, last int) {
	for n := first; n <= last; n++ {
		m := kiroFieldRe.FindStringSubmatch(strings.TrimSpace(b.d.lineText(n)))
		if m == nil {
			continue
		}
		key, val := strings.TrimSpace(m[1]), strings.TrimSpace(m[2])
		if _, known := fieldKindOf(strings.ToLower(key)); known {
			continue // _Depends:_ and _Boundary:_ are read by scanFields
		}
		t.Acceptance = append(t.Acceptance, plainText(key+": "+val))
	}
}
