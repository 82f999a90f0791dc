package planparse

import (
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// More plan dialects, each a shape people write plans in without the task
// markers of the others.

var (
	// A numbered stage heading: "## Stage 1 – Stabilise", "### Phase 2: UX".
	stageHeadRe = regexp.MustCompile(`(?i)^(?:phase|stage|milestone|step|part|wave|sprint|iteration)\s+\d{1,3}\b`)
	// Lead-ins of a list of work: "**Tasks:**", "Steps:", "### Tasks".
	tasksLabelRe = regexp.MustCompile(`(?i)^(?:tasks|steps|to-?dos?|work items|implementation steps)$`)
	// Antigravity's "Proposed Changes": "#### [NEW] [HeroSection.tsx](src/HeroSection.tsx)".
	fileHeadRe = regexp.MustCompile(`^\[(NEW|MODIFY|DELETE)\]\s+(?:\[([^\]]+)\]\(([^)\s]+)\)|` + "`?" + `([^\s` + "`" + `]+)` + "`?" + `)\s*$`)
	gsdOpenRe  = regexp.MustCompile(`^\s*<task(?:\s[^>]*)?>\s*$`)
	gsdCloseRe = regexp.MustCompile(`^\s*</task>\s*$`)
	gsdTypeRe  = regexp.MustCompile(`\stype="([^"]*)"`)
	gsdTagRe   = regexp.MustCompile(`^\s*<(name|files)>(.*?)</(?:name|files)>\s*$`)
)

// labelledLists reads plans whose work is a list under a "Tasks:" lead-in
// or a "Tasks" heading (one task per item of that list, its nested lines
// the task's body), as phased plans write them under each phase heading.
func (b *builder) labelledLists() {
	d := b.d
	for i := range d.blocks {
		blk := &d.blocks[i]
		if blk.kind != bItem || !b.underTasksLabel(i) {
			continue
		}
		b.bulletTask(i)
	}
}

// underTasksLabel reports whether item i is an item of a list introduced by
// a "Tasks:" paragraph or right under a "Tasks" heading, or of a numbered
// list that goes on with such a list's numbering after a block that broke it
// (a code fence indented too little ends a markdown list).
func (b *builder) underTasksLabel(i int) bool {
	d := b.d
	list := d.blocks[i].up
	if list < 1 {
		return false
	}
	if b.tasksList == nil {
		b.tasksList = map[int]bool{}
	}
	if v, ok := b.tasksList[list]; ok {
		return v
	}
	v := false
	if lead := b.leadIn(i); lead != "" {
		v = tasksLabelRe.MatchString(label(lead))
	} else if h := &d.blocks[list-1]; d.blocks[i].item < 0 && h.kind == bHeading && h.next == list {
		v = tasksLabelRe.MatchString(label(h.text))
	} else if n := b.itemNumber(i); n > 1 {
		// The list before this one in the same section, at the same depth.
		for j := list - 1; j >= 0 && j > list-200 && d.blocks[j].kind != bHeading; j-- {
			if first := j + 1; d.blocks[j].kind == bOther && first < len(d.blocks) && d.blocks[first].kind == bItem &&
				d.blocks[first].up == j && d.blocks[first].item == d.blocks[i].item && d.blocks[first].ordered {
				v = b.underTasksLabel(first)
				break
			}
		}
	}
	b.tasksList[list] = v
	return v
}

// itemNumber is the number of an ordered list item ("3." is 3), or 0.
func (b *builder) itemNumber(i int) int {
	n := 0
	for _, c := range b.d.src[b.d.blocks[i].pos:] {
		if c < '0' || c > '9' || n > 1e6 {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// stageBullets reads plans written as numbered stage or phase headings each
// followed by plain bullets ("## Stage 1 – ..." then "- Fix dotfile
// staging: ..."): every top-level bullet of a stage's section is a task.
// It runs only when the document has no other task markers.
func (b *builder) stageBullets() {
	d := b.d
	for i := range d.blocks {
		blk := &d.blocks[i]
		if blk.kind != bItem || blk.item >= 0 || b.excluded(i) {
			continue
		}
		h := b.phase[i]
		if h < 0 || !stageHeadRe.MatchString(label(d.blocks[h].text)) || b.nearestHeading(i) != h {
			continue
		}
		b.bulletTask(i)
	}
}

// fileHeadings reads plans whose work is a list of file changes, one
// heading each: "#### [NEW] [HeroSection.tsx](src/components/HeroSection.tsx)",
// "[MODIFY]", "[DELETE]" (Antigravity's "Proposed Changes"). The heading's
// section is the task; the file is declared with its action.
func (b *builder) fileHeadings() {
	for i := range b.d.blocks {
		blk := &b.d.blocks[i]
		if blk.kind != bHeading {
			continue
		}
		m := fileHeadRe.FindStringSubmatch(blk.text)
		if m == nil {
			continue
		}
		name, path := m[2], m[3]
		if path == "" {
			name, path = m[4], m[4]
		}
		verb := map[string]string{"NEW": "Create", "MODIFY": "Modify", "DELETE": "Delete"}[m[1]]
		t := b.headingTask(i, "", verb+" "+name, "")
		b.addFile(t, path, actionOf(verb), true)
	}
}

// hasFileHeadings reports an Antigravity file-change heading.
func (b *builder) hasFileHeadings() bool {
	for i := range b.d.blocks {
		if blk := &b.d.blocks[i]; blk.kind == bHeading && fileHeadRe.MatchString(blk.text) {
			return true
		}
	}
	return false
}

// nearestHeading is the last heading whose section holds block i.
func (b *builder) nearestHeading(i int) int {
	if s := b.stack[i]; len(s) > 0 {
		return s[len(s)-1]
	}
	return -1
}

// bulletTitle is the name a bullet gives its work: the words before a
// colon ("Fix dotfile staging: adjust ..."), else the whole line.
func bulletTitle(s string) string {
	s = plainText(s)
	if k := strings.Index(s, ": "); k > 0 && k <= 80 {
		return cleanTitle(s[:k])
	}
	return strings.TrimRight(cleanTitle(s), ":")
}

// cursorTodos reads a Cursor plan: its tasks are the front matter's todos
// list ({id, content, status}); the markdown below is their context.
func (b *builder) cursorTodos() {
	d := b.d
	if d.fmLines < 3 {
		return
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(d.src[d.lines[1]:d.lineStart(d.fmLines)], &doc); err != nil || len(doc.Content) == 0 {
		return
	}
	root := doc.Content[0]
	var todos *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "todos" && root.Content[i+1].Kind == yaml.SequenceNode {
			todos = root.Content[i+1]
		}
	}
	if todos == nil {
		return
	}
	for k, it := range todos.Content {
		if it.Kind != yaml.MappingNode {
			continue
		}
		var id, content, status string
		for j := 0; j+1 < len(it.Content); j += 2 {
			switch it.Content[j].Value {
			case "id":
				id = it.Content[j+1].Value
			case "content":
				content = it.Content[j+1].Value
			case "status":
				status = it.Content[j+1].Value
			}
		}
		line := it.Line + 1 // node lines count from the line after "---"
		endLine := d.fmLines
		if k+1 < len(todos.Content) {
			endLine = todos.Content[k+1].Line + 1
		} else if next := nextKeyLine(root, todos); next > 0 {
			endLine = next + 1
		}
		t := b.newTask(id, content, line, d.lineStart(line), d.trimBlank(d.lineStart(line), d.lineStart(endLine)))
		t.Title = cleanTitle(content)
		if s, ok := statusWord(status); ok {
			t.Status = s
		} else if strings.EqualFold(status, "cancelled") || strings.EqualFold(status, "canceled") {
			t.Status = StatusDone
		}
	}
}

// nextKeyLine is the line of the top-level key after value v, or 0.
func nextKeyLine(root, v *yaml.Node) int {
	for i := 1; i+1 < len(root.Content); i += 2 {
		if root.Content[i] == v {
			return root.Content[i+1].Line
		}
	}
	return 0
}

// gsdTasks reads GSD ("get shit done") plans: <task type="auto"> blocks
// with <name>, <files>, <action>, <verify> and <done> inside.
func (b *builder) gsdTasks() {
	d := b.d
	open := -1
	for n := 1; n <= len(d.lines); n++ {
		if d.inCode[n-1] {
			continue
		}
		ln := d.lineText(n)
		switch {
		case open < 0 && gsdOpenRe.MatchString(ln):
			open = n
		case open > 0 && gsdCloseRe.MatchString(ln):
			b.gsdTask(open, n)
			open = -1
		}
	}
}

func (b *builder) gsdTask(first, last int) {
	d := b.d
	t := b.newTask("", "", first, d.lineStart(first), d.lineStart(last+1))
	if m := gsdTypeRe.FindStringSubmatch(d.lineText(first)); m != nil && strings.HasPrefix(m[1], "checkpoint") {
		t.Checkpoint = true
	}
	for n := first + 1; n < last; n++ {
		m := gsdTagRe.FindStringSubmatch(d.lineText(n))
		if m == nil {
			continue
		}
		switch m[1] {
		case "name":
			lbl, title := "", m[2]
			if mm := taskHeadRe.FindStringSubmatch(title); mm != nil {
				lbl, title = "Task "+mm[1], mm[2]
			}
			t.Label, t.Title = lbl, cleanTitle(title)
		case "files":
			for _, f := range splitList(m[2]) {
				b.addFile(t, f, ActionTouch, true)
			}
		}
	}
}

// hasGSDTasks reports a <task> block with a <name> outside code.
func (b *builder) hasGSDTasks() bool {
	d := b.d
	for n := 1; n <= len(d.lines); n++ {
		if !d.inCode[n-1] && gsdOpenRe.MatchString(d.lineText(n)) {
			for m := n + 1; m <= len(d.lines) && m < n+5; m++ {
				if strings.Contains(d.lineText(m), "<name>") {
					return true
				}
			}
		}
	}
	return false
}

// hasTodos reports a Cursor-style todos list in the front matter.
func (b *builder) hasTodos() bool {
	todos, ok := b.p.FrontMatter["todos"].([]any)
	if !ok || len(todos) == 0 {
		return false
	}
	first, ok := todos[0].(map[string]any)
	_, hasContent := first["content"]
	return ok && hasContent
}

// bulletTask makes a task of list item i: its text is the title, its
// subtree the body, its checkbox (if any) the task's.
func (b *builder) bulletTask(i int) {
	blk := &b.d.blocks[i]
	t := b.newTask("", "", blk.line, blk.start, b.d.subtreeEnd(i))
	b.placeTask(t, i)
	if blk.cb >= 0 {
		t.setCheckbox(blk.cb, blk.mark, blk.star)
	}
	t.Title = bulletTitle(blk.text)
}
