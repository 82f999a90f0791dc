package planparse

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// finishMarkdown fixes task ranges (a task ends where the next one starts),
// then reads bodies, executable steps and fields.
func (b *builder) finishMarkdown() {
	d := b.d
	tasks := b.p.Tasks
	sort.SliceStable(tasks, func(i, j int) bool { return tasks[i].Start < tasks[j].Start })
	var fences []int
	for i := range d.blocks {
		if d.blocks[i].kind == bFence {
			fences = append(fences, i)
			if !d.blocks[i].closed {
				b.unterminated(i)
			}
		}
	}
	f := 0
	attached := make([]bool, len(fences))
	for k, t := range tasks {
		next := len(d.src)
		if k+1 < len(tasks) && tasks[k+1].Start >= t.Start {
			next = tasks[k+1].Start
		}
		if next < len(d.src) && t.End > next {
			t.End = d.trimBlank(t.Start, next)
		}
		if t.End < t.Start {
			t.End = t.Start
		}
		t.End = d.followingFences(fences, t.End, next)
		t.Body = d.str[t.Start:t.End]
		for f < len(fences) && d.blocks[fences[f]].pos < t.Start {
			f++
		}
		for g := f; g < len(fences) && d.blocks[fences[g]].pos < t.End; g++ {
			blk := &d.blocks[fences[g]]
			if lang, ok := runInfo(blk.info); ok {
				attached[g] = true
				t.Steps = append(t.Steps, Step{Lang: lang, Code: blk.code, Line: blk.codeLine})
			}
		}
		last := t.Line
		if t.End > t.Start {
			last = d.lineOf(t.End-1) + 1
		}
		b.scanFields(t, t.Line+1, last)
		if b.post != nil {
			b.post(t, t.Line+1, last)
		}
		if t.Title == "" {
			t.Title = t.Label
		}
		if checkpointRe.MatchString(t.Title) {
			t.Checkpoint = true
		}
		if optionalRe.MatchString(t.Title) {
			t.Optional = true
		}
	}
	for i, t := range d.orphanFences(fences, attached, tasks) {
		blk := &d.blocks[i]
		b.diag(SeverityError, blk.line, fmt.Sprintf("this `%s` block belongs to no task: it is not inside %s nor directly after its line", blk.info, t.Label),
			"put it right under its task's line (only blank lines between) or indent it under the task; make it a plain ```sh block if it is documentation")
	}
}

// followingFences extends a task's text that ends at end to the closed
// `run` fences that directly follow it (only blank lines between) before
// next, the next task's start. People write a checklist item's step at
// column 0 under it (spec-kit, Kiro); markdown then ends the item before
// the fence, and the task would silently have no step (a manual task).
func (d *doc) followingFences(fences []int, end, next int) int {
	for _, i := range fences {
		blk := &d.blocks[i]
		if blk.pos < end {
			continue
		}
		if blk.pos >= next || !blk.closed || len(bytes.TrimSpace(d.src[end:blk.start])) != 0 {
			break
		}
		if _, run := runInfo(blk.info); !run {
			break
		}
		end = d.lineStart(blk.lastLine + 2)
	}
	return end
}

// orphanFences are the `run` fences that follow a task's text (no heading
// between) but that no task took: neither inside the task nor directly
// after its line, so which task each is a step of would be a guess, and
// skipping it would run the plan without it. A fence in a section of its
// own (a heading after the last task: "### Notes") is the plan's prose.
func (d *doc) orphanFences(fences []int, attached []bool, tasks []*Task) map[int]*Task {
	orphans := map[int]*Task{}
	for g, i := range fences {
		blk := &d.blocks[i]
		if _, run := runInfo(blk.info); !run || attached[g] || !blk.closed {
			continue
		}
		var before *Task
		for _, t := range tasks {
			if t.Start < blk.pos && (before == nil || t.Start > before.Start) {
				before = t
			}
		}
		if before != nil && !d.headingBetween(before.End, blk.pos) {
			orphans[i] = before
		}
	}
	return orphans
}

// headingBetween reports whether a heading starts in [from, to).
func (d *doc) headingBetween(from, to int) bool {
	for i := range d.blocks {
		if blk := &d.blocks[i]; blk.kind == bHeading && blk.pos >= from && blk.pos < to {
			return true
		}
	}
	return false
}

var (
	// Checkpoints: "Checkpoint - Ensure all tests pass", "Final checkpoint: ...",
	// "Ensure all tests pass".
	checkpointRe = regexp.MustCompile(`(?i)^(?:final\s+)?check-?point\b|^ensure (?:that )?all (?:the )?(?:tests|checks|gates) pass`)
	// What a checkpoint asks that only gates can answer: tests or checks pass.
	gatesOnlyRe = regexp.MustCompile(`(?i)^(?:(?:final\s+)?check-?point\b[^\p{L}]*)?[\p{L}\s,/-]*?\b(?:tests?|checks?|gates?|builds?)\b[^.]*?\bpass(?:es|ing)?\b|^(?:final\s+)?check-?point\W*$`)
	optionalRe  = regexp.MustCompile(`(?i)\(optional\)|^optional\s*[:\-–—]`)
)

// GatesOnly reports whether the task is a checkpoint that only asks for the
// tests or gates to pass ("Checkpoint - Ensure all tests pass, ask the user
// if questions arise"): planx answers it by running the gates.
func (t *Task) GatesOnly() bool {
	return t.Checkpoint && len(t.Steps) == 0 && len(t.Children) == 0 && gatesOnlyRe.MatchString(t.Title)
}

// runInfo reports whether a fence info string marks an executable step
// ("sh run", "bash run"): the word run must follow the language.
func runInfo(info string) (string, bool) {
	f := strings.Fields(info)
	if len(f) < 2 {
		return "", false
	}
	for _, w := range f[1:] {
		if w == "run" {
			return strings.Trim(f[0], "{}."), true
		}
	}
	return "", false
}

func (b *builder) unterminated(i int) {
	blk := &b.d.blocks[i]
	if ln, ok := b.d.dedentedEnd(blk); ok {
		// Not a missing ```: a line less indented than an indented fence
		// (a heredoc's body or its terminator at column 0) ends the list
		// item, and markdown ends the fence with it.
		b.diag(SeverityError, ln, fmt.Sprintf("line %d is less indented than the code fence opened at line %d, so it ends the list item and the fence with it", ln, blk.line),
			fmt.Sprintf("indent line %d (and the lines after it in the block) at least as the fence is indented (%d spaces); a heredoc's body and terminator too (or use <<-EOF with tabs)", ln, blk.pos-blk.start))
		return
	}
	if _, run := runInfo(blk.info); run {
		b.diag(SeverityError, blk.line, "executable code fence is never closed",
			"close the ``` block; an open fence swallows the rest of the plan")
		return
	}
	b.diag(SeverityWarning, blk.line, "code fence is never closed",
		"close the ``` block; an open fence swallows the rest of the plan")
}

// dedentedEnd is the 1-based line that cut the unclosed fence blk short:
// the line after its last, when that line is not blank and starts left of
// the fence's indentation.
func (d *doc) dedentedEnd(blk *block) (int, bool) {
	ind := blk.pos - blk.start
	next := blk.lastLine + 1
	if ind == 0 || next >= len(d.lines) {
		return 0, false
	}
	line := lineBytes(d.src, d.lines, next)
	trimmed := bytes.TrimLeft(line, " \t")
	if len(bytes.TrimSpace(line)) == 0 || len(line)-len(trimmed) >= ind {
		return 0, false
	}
	return next + 1, true
}

// finish assigns IDs, resolves parents and dependencies, fills in the plan
// title and topic and validates the result.
func (b *builder) finish() {
	p := b.p
	for i, t := range p.Tasks {
		if n, ok := parseTID(t.Label); ok && b.tids {
			t.ID = canonicalID(n)
		} else {
			t.ID = canonicalID(i + 1)
		}
	}
	for t, par := range b.parent {
		t.Parent = par.ID
	}
	// Parents come before their sub-tasks: an optional group's sub-tasks
	// are optional too.
	for _, t := range p.Tasks {
		if t.Status == StatusOptional {
			t.Optional = true
		}
		if par := b.parent[t]; par != nil {
			par.Children = append(par.Children, t.ID)
			t.Optional = t.Optional || par.Optional
		}
	}
	b.resolveRefs()
	if p.Title == "" && b.d != nil {
		for _, lvl := range []int{1, 2, 3, 4, 5, 6} {
			for i := range b.d.blocks {
				if blk := &b.d.blocks[i]; blk.kind == bHeading && blk.level == lvl && blk.text != "" {
					p.Title = plainText(blk.text)
					break
				}
			}
			if p.Title != "" {
				break
			}
		}
	}
	if p.Topic == "" {
		p.Topic = topicFromPath(p.Path)
	}
	if p.Topic == "" {
		p.Topic = slugify(p.Title)
	}
	if p.Topic == "" {
		p.Topic = "plan"
	}
	if p.Title == "" {
		p.Title = p.Topic
	}
	b.validate()
	// Report in reading order, errors before warnings on the same line.
	rank := map[Severity]int{SeverityError: 0, SeverityWarning: 1, SeverityInfo: 2}
	sort.SliceStable(p.Diagnostics, func(i, j int) bool {
		a, c := p.Diagnostics[i], p.Diagnostics[j]
		if a.Line != c.Line {
			return a.Line < c.Line
		}
		return rank[a.Severity] < rank[c.Severity]
	})
}

func (b *builder) resolveRefs() {
	p := b.p
	byID := make(map[TaskID]*Task, len(p.Tasks))
	byLabel := make(map[string]*Task, len(p.Tasks))
	for _, t := range p.Tasks {
		if _, ok := byID[t.ID]; !ok {
			byID[t.ID] = t
		}
		if k := refKey(t.Label); k != "" {
			if _, ok := byLabel[k]; !ok {
				byLabel[k] = t
			}
		}
	}
	for _, t := range p.Tasks {
		seen := map[TaskID]bool{}
		for _, r := range b.refs[t] {
			var dep *Task
			if n, ok := parseTID(r); ok && b.tids {
				dep = byID[canonicalID(n)]
			}
			if dep == nil {
				dep = byLabel[refKey(r)]
			}
			if dep == nil {
				b.diag(SeverityError, b.lineOf(t, "dep:"+r), fmt.Sprintf("%s depends on unknown task %s", t.ID, r),
					"refer to a task that exists in this plan, or remove the dependency")
				continue
			}
			if !seen[dep.ID] {
				seen[dep.ID] = true
				t.DependsOn = append(t.DependsOn, dep.ID)
			}
		}
	}
}
