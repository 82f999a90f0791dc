package planparse

import (
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
	for k, t := range tasks {
		if k+1 < len(tasks) && tasks[k+1].Start >= t.Start && t.End > tasks[k+1].Start {
			t.End = d.trimBlank(t.Start, tasks[k+1].Start)
		}
		if t.End < t.Start {
			t.End = t.Start
		}
		t.Body = d.str[t.Start:t.End]
		for f < len(fences) && d.blocks[fences[f]].pos < t.Start {
			f++
		}
		for g := f; g < len(fences) && d.blocks[fences[g]].pos < t.End; g++ {
			blk := &d.blocks[fences[g]]
			if lang, ok := runInfo(blk.info); ok {
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
	if _, run := runInfo(blk.info); run {
		b.diag(SeverityError, blk.line, "executable code fence is never closed",
			"close the ``` block; an open fence swallows the rest of the plan")
		return
	}
	b.diag(SeverityWarning, blk.line, "code fence is never closed",
		"close the ``` block; an open fence swallows the rest of the plan")
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
