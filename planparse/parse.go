package planparse

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// MaxSize is the largest plan planx reads; anything bigger is not a plan.
const MaxSize = 10 << 20

// Options control parsing.
type Options struct {
	// Format forces a dialect; FormatAuto detects one.
	Format Format
	// Agent and Executor are the defaults .planx.yaml sets (agent:,
	// executor:) for a plan that sets neither: a task without steps goes
	// to them, so it is no cause for a warning.
	Agent, Executor string
}

// Formats lists the dialects Options.Format accepts, FormatAuto excluded.
func Formats() []Format {
	return []Format{FormatNative, FormatSpecKit, FormatKiro, FormatSuperpowers, FormatPhased, FormatTaskMaster, FormatChecklist, FormatCursor, FormatGSD}
}

// ParseFile reads the plan at path (at most MaxSize bytes) and parses it.
func ParseFile(path string, opts Options) (*Plan, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w: %w", path, ErrUnreadable, err)
	}
	return Parse(path, src, opts)
}

// Parse turns src into a Plan. It fails only when src is not a readable
// text plan (ErrUnreadable); problems in the plan itself are reported as
// Plan.Diagnostics, see Plan.Err.
func Parse(path string, src []byte, opts Options) (*Plan, error) {
	switch {
	case len(src) > MaxSize:
		return nil, fmt.Errorf("parse %s: %w: larger than %d MiB", path, ErrUnreadable, MaxSize>>20)
	case bytes.IndexByte(src, 0) >= 0:
		return nil, fmt.Errorf("parse %s: %w: binary file (NUL bytes)", path, ErrUnreadable)
	}
	switch opts.Format {
	case FormatAuto, FormatNative, FormatSpecKit, FormatKiro, FormatSuperpowers, FormatPhased, FormatTaskMaster, FormatChecklist, FormatCursor, FormatGSD:
	default:
		return nil, fmt.Errorf("parse %s: unknown format %q (want one of %s)", path, opts.Format, formatList())
	}
	p := &Plan{Path: path, Source: src, Tasks: []*Task{}, Diagnostics: []Diagnostic{}}
	b := &builder{p: p, refs: map[*Task][]string{}, parent: map[*Task]*Task{}, defaults: opts}

	format := opts.Format
	isJSON := looksLikeJSON(path, src)
	if format == FormatAuto && isJSON {
		format = FormatTaskMaster
	}
	// Refused before any parser runs: their cost is what the limit bounds.
	line := countItems(src)
	if isJSON && format == FormatTaskMaster {
		line = countJSONItems(src)
	}
	if line > 0 {
		p.Format = format
		b.reportTooMany(line)
		return p, nil
	}
	if format == FormatTaskMaster || (format == FormatAuto && taskMasterTextRe.Match(src)) {
		p.Format = FormatTaskMaster
		b.numericRefs = true
		if isJSON {
			b.parseTaskMasterJSON(src)
		} else {
			b.parseTaskMasterText(src)
		}
	} else {
		// A UTF-8 byte-order mark would hide the front matter and the first
		// heading from the markdown parser: parse after it, then shift the
		// offsets back so they index the original bytes.
		bom := 0
		if bytes.HasPrefix(src, []byte("\ufeff")) {
			bom = 3
		}
		b.d = newDoc(src[bom:])
		b.reportDeep()
		b.frontMatter()
		b.sections()
		if format == FormatAuto {
			format = b.detect()
		}
		p.Format = format
		b.parseMarkdown(format)
		b.finishMarkdown()
		for _, t := range p.Tasks {
			t.Start += bom
			t.End += bom
			if t.Checkbox >= 0 {
				t.Checkbox += bom
			}
		}
	}
	b.finish()
	return p, nil
}

func formatList() string {
	var s []string
	for _, f := range Formats() {
		s = append(s, string(f))
	}
	return strings.Join(s, ", ")
}

// ParseFormat checks a user-supplied dialect name; "" and "auto" mean detect.
func ParseFormat(s string) (Format, error) {
	switch s = strings.ToLower(strings.TrimSpace(s)); s {
	case "", "auto":
		return FormatAuto, nil
	case "memory-bank", "memorybank":
		return FormatNative, nil
	case "spec-kit":
		return FormatSpecKit, nil
	case "cc-sdd":
		return FormatKiro, nil
	case "task-master":
		return FormatTaskMaster, nil
	case "get-shit-done":
		return FormatGSD, nil
	}
	for _, f := range Formats() {
		if string(f) == s {
			return f, nil
		}
	}
	return FormatAuto, errors.New("unknown plan format " + fmt.Sprintf("%q", s) + " (want auto, " + formatList() + ")")
}

// looksLikeJSON tells task-master JSON from markdown; a README that opens
// with a "[![badge]..." line must stay markdown.
func looksLikeJSON(path string, src []byte) bool {
	t := bytes.TrimLeft(src, " \t\r\n\ufeff")
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return false
	}
	return strings.EqualFold(filepath.Ext(path), ".json") || json.Valid(t)
}

func (b *builder) parseMarkdown(f Format) {
	switch f {
	case FormatNative:
		b.parseNative(false)
	case FormatSpecKit:
		b.parseNative(true)
	case FormatKiro:
		b.parseKiro()
	case FormatSuperpowers, FormatPhased:
		b.parseTaskHeadings()
		// Phased plans without "Task 1.2" markers: lists under a "Tasks:"
		// label, else plain bullets under numbered stage headings.
		if len(b.p.Tasks) == 0 {
			b.labelledLists()
		}
		if len(b.p.Tasks) == 0 {
			b.stageBullets()
		}
		if len(b.p.Tasks) == 0 {
			b.fileHeadings()
		}
	case FormatChecklist:
		b.parseChecklist()
	case FormatCursor:
		b.cursorTodos()
	case FormatGSD:
		b.gsdTasks()
	}
}

// builder accumulates a Plan while a dialect parser runs.
type builder struct {
	p    *Plan
	d    *doc
	refs map[*Task][]string // raw dependency references, resolved in finish
	// numericRefs lets bare numbers ("1.2") in dependency fields refer to labels.
	numericRefs bool
	// tids: the dialect's own T-numbers are the IDs; otherwise IDs are positional.
	tids bool

	parent map[*Task]*Task // parent links, turned into IDs once IDs are final
	// post runs dialect-specific body reading after the generic fields.
	post func(t *Task, first, last int)

	hend      []int                    // per heading block: index of the block ending its section
	excl      map[int]bool             // per heading: it introduces criteria, not work
	phase     []int                    // per block: index of the heading naming its phase, -1 for none
	stack     [][]int                  // per item: the headings enclosing it, for the criteria-list test
	phaseSeen map[int]bool             // headings already listed in Plan.Phases
	gateLines []int                    // per declared gate: its line in the front matter
	critMemo  []int8                   // per item: criteriaItem's answer, 1 yes, -1 no, 0 not yet known
	tasksList map[int]bool             // per list block: its items are tasks (underTasksLabel)
	at        int                      // the line scanFields reads, 0 outside it
	lines     map[*Task]map[string]int // where a task declares a file or a dependency
	defaults  Options                  // Agent and Executor: .planx.yaml's, for a plan without its own
}

func (b *builder) diag(sev Severity, line int, msg, hint string) {
	b.p.Diagnostics = append(b.p.Diagnostics, Diagnostic{Severity: sev, Line: line, Message: msg, Hint: hint})
}

// newTask adds a task whose text spans [start, end) of the source.
func (b *builder) newTask(label, title string, line, start, end int) *Task {
	if end < start {
		end = start
	}
	t := &Task{
		Label:     label,
		Title:     plainText(title),
		Status:    StatusOpen,
		DependsOn: []TaskID{},
		Files:     []File{},
		Steps:     []Step{},
		Line:      line,
		Start:     start,
		End:       end,
		Checkbox:  -1,
	}
	b.p.Tasks = append(b.p.Tasks, t)
	return t
}

// setCheckbox records a task's checkbox and the status it encodes.
func (t *Task) setCheckbox(off int, mark byte, star bool) {
	t.Checkbox = off
	t.Optional = t.Optional || star
	switch mark {
	case 'x', 'X':
		t.Status = StatusDone
	case '-':
		t.Status = StatusInProgress
	default:
		t.Status = StatusOpen
		if star {
			t.Status = StatusOptional
		}
	}
}
