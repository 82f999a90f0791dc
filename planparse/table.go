package planparse

import (
	"strings"
)

// tableCells splits a GFM table row into trimmed cells with their byte
// offsets in the line; pipes inside backticks or escaped as \| do not split.
func tableCells(line string) ([]string, []int) {
	var cells []string
	var offs []int
	start, tick := 0, false
	flush := func(end int) {
		cells = append(cells, strings.TrimSpace(line[start:end]))
		offs = append(offs, start)
	}
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '`':
			tick = !tick
		case '\\':
			i++
		case '|':
			if !tick {
				flush(i)
				start = i + 1
			}
		}
	}
	flush(len(line))
	trim := strings.TrimSpace(line)
	if len(cells) > 1 && cells[0] == "" && strings.HasPrefix(trim, "|") {
		cells, offs = cells[1:], offs[1:]
	}
	if len(cells) > 1 && cells[len(cells)-1] == "" && strings.HasSuffix(trim, "|") {
		cells, offs = cells[:len(cells)-1], offs[:len(offs)-1]
	}
	return cells, offs
}

// taskTable describes a table whose rows are tasks: it has an ID column and
// a task (title) column.
type taskTable struct {
	id, title, deps, files, accept, status int
}

func taskTableColumns(header []string) (taskTable, bool) {
	tt := taskTable{id: -1, title: -1, deps: -1, files: -1, accept: -1, status: -1}
	for i, h := range header {
		switch strings.ToLower(plainText(h)) {
		case "id":
			tt.id = i
		case "task", "title", "name", "description":
			if tt.title < 0 {
				tt.title = i
			}
		case "dependencies", "depends on", "deps", "dep", "depends":
			tt.deps = i
		case "files", "files touched", "file", "files/modules touched":
			tt.files = i
		case "acceptance", "acceptance test", "acceptance tests", "acceptance criteria":
			tt.accept = i
		case "status", "done":
			tt.status = i
		}
	}
	return tt, tt.id >= 0 && tt.title >= 0
}

// tableTasks adds a task for every T-numbered row of task tables (memory-bank
// plans: | ID | Task | Owner | Dependencies | ... |). It returns how many.
func (b *builder) tableTasks(add bool) int {
	d := b.d
	n := 0
	for i := range d.blocks {
		blk := &d.blocks[i]
		if blk.kind != bTable {
			continue
		}
		header, _ := tableCells(d.lineText(blk.line))
		cols, ok := taskTableColumns(header)
		if !ok {
			continue
		}
		end := d.subtreeEnd(i)
		for ln := blk.line + 2; ln <= len(d.lines) && d.lineStart(ln) < end; ln++ {
			cells, offs := tableCells(d.lineText(ln))
			if cols.id >= len(cells) || cols.title >= len(cells) {
				continue
			}
			lbl := strings.Trim(cells[cols.id], "*`")
			if _, ok := parseTID(lbl); !ok {
				continue
			}
			n++
			if !add {
				continue
			}
			start := d.lineStart(ln)
			t := b.newTask(lbl, cells[cols.title], ln, start, d.trimBlank(start, d.lineStart(ln+1)))
			b.placeTask(t, i)
			cell := func(c int) string {
				if c >= 0 && c < len(cells) {
					return cells[c]
				}
				return ""
			}
			if v := cell(cols.deps); v != "" {
				b.addRefs(t, v)
			}
			for _, f := range splitList(cell(cols.files)) {
				b.addFile(t, f, ActionTouch, true)
			}
			if v := plainText(cell(cols.accept)); v != "" && !noneRe.MatchString(v) {
				t.Acceptance = append(t.Acceptance, v)
			}
			if c := cols.status; c >= 0 && c < len(cells) {
				v := cells[c]
				if k := strings.Index(v, "["); k >= 0 && len(v) >= k+3 && v[k+2] == ']' && strings.ContainsRune(" xX-", rune(v[k+1])) {
					raw := d.lineText(ln)
					if p := strings.Index(raw[offs[c]:], "["); p >= 0 {
						t.setCheckbox(start+offs[c]+p+1, v[k+1], false)
					}
				} else if s, ok := statusWord(v); ok {
					t.Status = s
				}
			}
		}
	}
	return n
}
