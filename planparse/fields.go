package planparse

import (
	"regexp"
	"strings"
)

var (
	// A field line: optional bullet and checkbox, then "Label: value" with the
	// label possibly bold or italic ("**Files:**", "**Dependencies**:", "_Requirements: 1.2_").
	bulletRe   = regexp.MustCompile(`^(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX\-]\]\*?\s+)?`)
	fieldRe    = regexp.MustCompile(`^([\p{L}][\p{L}\p{N} /&()'-]{0,40}?)\s*[:：]\s*(.*)$`)
	refTRe     = regexp.MustCompile(`\b[Tt](\d{1,6})(?:\s*[-–]\s*[Tt](\d{1,6}))?\b`)
	refTaskRe  = regexp.MustCompile(`(?i)\b(?:task|subtask)\s+(\d+(?:[.\-]\d+)*)`)
	refNumRe   = regexp.MustCompile(`(?:^|[\s,(\[])(\d+(?:\.\d+)*)\b`)
	noneRe     = regexp.MustCompile(`(?i)^\s*(?:-+|—|none|n/?a|no|nothing|\[\])\s*(?:$|[\s(.,;])`)
	yesRe      = regexp.MustCompile(`(?i)^(?:yes|true|y|on|x|✓|✅)\b`)
	fileNoteRe = regexp.MustCompile(`(?i)\((new|create|created|modify|modified|edit|delete|deleted|removed?|test)\)`)
)

type fieldKind uint8

const (
	fNone fieldKind = iota
	fFiles
	fDeps
	fAcceptance
	fGates
	fBlast
	fExecutor
	fCheckpoint
	fParallel
	fStatus
	fAction  // a single file line: Create:/Modify:/Test:/Delete:
	fChanges // Changes tests: the tests whose base assertions the task changes
)

// fieldKindOf maps a field label, lower-cased, to its kind.
func fieldKindOf(key string) (fieldKind, bool) {
	switch key {
	case "files", "file", "files/modules touched", "files/interfaces", "files to modify",
		"files touched", "files to create", "files changed":
		return fFiles, true
	case "depends on", "depends", "dependencies", "dependency", "dep", "deps", "blocked by", "requires":
		return fDeps, true
	case "acceptance", "acceptance criteria", "acceptance test", "acceptance tests", "done when", "definition of done":
		return fAcceptance, true
	case "gates", "gate":
		return fGates, true
	case "blast radius", "boundary":
		return fBlast, true
	case "executor":
		return fExecutor, true
	case "checkpoint":
		return fCheckpoint, true
	case "parallel":
		return fParallel, true
	case "status":
		return fStatus, true
	case "create", "modify", "test", "tests", "delete", "new", "edit", "remove":
		return fAction, true
	case "changes tests", "changed tests", "changes test":
		return fChanges, true
	}
	return fNone, false
}

// actionOf maps a file-line label (Create:, Modify:, ...) or a note word
// ("(new)", "(modified)") to a file action; ActionTouch when unknown.
func actionOf(word string) FileAction {
	switch strings.ToLower(word) {
	case "create", "created", "new":
		return ActionCreate
	case "modify", "modified", "edit":
		return ActionModify
	case "test", "tests":
		return ActionTest
	case "delete", "deleted", "remove", "removed":
		return ActionDelete
	}
	return ActionTouch
}

// fieldLine splits a body line into its field kind and value.
func fieldLine(s string) (fieldKind, string, string) {
	if !strings.Contains(s, ":") && !strings.Contains(s, "：") {
		return fNone, "", "" // most body lines; skip the regexps
	}
	s = strings.TrimSpace(bulletRe.ReplaceAllString(strings.TrimSpace(s), ""))
	s = strings.ReplaceAll(s, "**", "")
	s = strings.Trim(s, "_")
	m := fieldRe.FindStringSubmatch(s)
	if m == nil {
		return fNone, "", ""
	}
	key := strings.ToLower(strings.TrimSpace(m[1]))
	k, ok := fieldKindOf(key)
	if !ok {
		return fNone, "", ""
	}
	return k, key, strings.TrimSpace(strings.Trim(strings.TrimSpace(m[2]), "_"))
}

// scanFields reads the planx fields from task body lines first..last
// (1-based, inclusive), skipping code blocks. Continuation bullets belong to
// the last list-valued field (Files, Depends on, Acceptance).
func (b *builder) scanFields(t *Task, first, last int) {
	defer func() { b.at = 0 }()
	cur := fNone
	curIndent := -1
	curBullet := false // the field line was itself a bullet: its list is nested deeper
	for n := first; n <= last; n++ {
		if n-1 < len(b.d.inCode) && b.d.inCode[n-1] {
			continue
		}
		raw := b.d.lineText(n)
		b.at = n
		trim := strings.TrimSpace(raw)
		if trim == "" {
			continue
		}
		indent := len(raw) - len(strings.TrimLeft(raw, " \t"))
		isBullet := bulletRe.MatchString(trim)
		k, key, val := fieldLine(trim)
		if k == fAction && cur != fFiles {
			// "Test: ..." outside a Files list is prose unless it names a path.
			if p := cleanPath(val); !pathLike(p) && !dotName(p) {
				k = fNone
			}
		}
		if k != fNone {
			b.applyField(t, k, key, val)
			switch k {
			case fFiles, fDeps, fAcceptance:
				cur, curIndent, curBullet = k, indent, isBullet
			case fAction:
				// stays inside the Files list
			default:
				cur = fNone
			}
			continue
		}
		if cur == fNone {
			continue
		}
		if indent <= curIndent && (!isBullet || curBullet) {
			cur = fNone
			continue
		}
		item := strings.TrimSpace(bulletRe.ReplaceAllString(trim, ""))
		switch cur {
		case fFiles:
			b.addFile(t, item, ActionTouch, true)
		case fDeps:
			b.addRefs(t, item)
		case fAcceptance:
			if item != "" {
				t.Acceptance = append(t.Acceptance, plainText(item))
			}
		}
	}
}

func (b *builder) applyField(t *Task, k fieldKind, key, val string) {
	switch k {
	case fFiles:
		if val == "" {
			return
		}
		for _, part := range splitList(val) {
			b.addFile(t, part, ActionTouch, true)
		}
	case fAction:
		b.addFile(t, val, actionOf(key), true)
	case fDeps:
		b.addRefs(t, val)
	case fAcceptance:
		if v := plainText(val); v != "" && !noneRe.MatchString(v) {
			t.Acceptance = append(t.Acceptance, v)
		}
	case fChanges:
		for _, c := range splitList(val) {
			if c = strings.Trim(strings.TrimSpace(c), "`"); c != "" && !noneRe.MatchString(c) {
				t.ChangesTests = append(t.ChangesTests, c)
			}
		}
	case fGates:
		t.Gates = []string{}
		for _, g := range splitList(val) {
			if g = strings.Trim(strings.TrimSpace(g), "`"); g != "" && !noneRe.MatchString(g) {
				t.Gates = append(t.Gates, g)
			}
		}
	case fBlast:
		t.BlastRadius = strings.Trim(plainText(val), "`")
	case fExecutor:
		t.Executor = strings.ToLower(strings.Trim(plainText(val), "`"))
	case fCheckpoint:
		t.Checkpoint = yesRe.MatchString(plainText(val))
	case fParallel: // "Parallel: yes", the heading dialects' [P]
		t.Parallel = yesRe.MatchString(plainText(val))
	case fStatus:
		if s, ok := statusWord(val); ok {
			t.Status = s
		}
	}
}

func statusWord(v string) (Status, bool) {
	v = strings.ToLower(plainText(v))
	switch {
	case strings.HasPrefix(v, "done"), strings.HasPrefix(v, "complete"), strings.HasPrefix(v, "✅"):
		return StatusDone, true
	case strings.HasPrefix(v, "in progress"), strings.HasPrefix(v, "in-progress"), strings.HasPrefix(v, "in_progress"), strings.HasPrefix(v, "doing"):
		return StatusInProgress, true
	case strings.HasPrefix(v, "optional"):
		return StatusOptional, true
	case strings.HasPrefix(v, "open"), strings.HasPrefix(v, "todo"), strings.HasPrefix(v, "pending"):
		return StatusOpen, true
	}
	return "", false
}

// splitList splits "a, b and c" style lists, keeping backticked parts whole.
func splitList(s string) []string {
	var out []string
	var cur strings.Builder
	tick := false
	for _, r := range s {
		switch {
		case r == '`':
			tick = !tick
			cur.WriteRune(r)
		case !tick && (r == ',' || r == ';'):
			out = append(out, cur.String())
			cur.Reset()
		default:
			cur.WriteRune(r)
		}
	}
	out = append(out, cur.String())
	return out
}

// addFile records a declared file. Explicit entries (a Files field) are
// checked for escaping the repository; heuristic ones from prose are not
// trusted enough for that and are dropped instead.
func (b *builder) addFile(t *Task, entry string, action FileAction, explicit bool) {
	entry = strings.TrimSpace(entry)
	if k, key, val := fieldLine(entry); k == fAction {
		action, entry = actionOf(key), val
	} else if strings.EqualFold(key, "reference") {
		return
	}
	if strings.HasPrefix(strings.ToLower(entry), "reference:") {
		return
	}
	if m := fileNoteRe.FindStringSubmatch(entry); m != nil && action == ActionTouch {
		action = actionOf(m[1])
	}
	p := cleanPath(entry)
	if p == "" || !(pathLike(p) || knownFile(p) || explicit && dotName(p)) {
		return
	}
	if !explicit {
		p = strings.TrimPrefix(p, "/")
		if escapes(p) {
			return
		}
	}
	for _, f := range t.Files {
		if f.Path == p {
			return
		}
	}
	t.Files = append(t.Files, File{Path: p, Action: action})
	b.noteLine(t, "file:"+p)
}

// noteLine remembers the line being read as where t declares key (a file,
// a dependency), so that a problem with it points there.
func (b *builder) noteLine(t *Task, key string) {
	if b.at == 0 {
		return
	}
	if b.lines == nil {
		b.lines = map[*Task]map[string]int{}
	}
	if b.lines[t] == nil {
		b.lines[t] = map[string]int{}
	}
	if _, ok := b.lines[t][key]; !ok {
		b.lines[t][key] = b.at
	}
}

// lineOf is the line where t declares key, or t's own line.
func (b *builder) lineOf(t *Task, key string) int {
	if n, ok := b.lines[t][key]; ok {
		return n
	}
	return t.Line
}

func knownFile(p string) bool {
	l := strings.ToLower(p)
	return strings.HasSuffix(l, "file") || l == "license" || l == "readme" || l == "changelog"
}

// addRefs records raw dependency references; they are resolved once all
// tasks are known.
func (b *builder) addRefs(t *Task, s string) {
	s = strings.Trim(plainText(s), "_")
	if noneRe.MatchString(s) {
		return
	}
	for _, r := range extractRefs(s, b.numericRefs) {
		b.refs[t] = append(b.refs[t], r)
		b.noteLine(t, "dep:"+r)
	}
}

// extractRefs finds task references: T-IDs (with ranges T004-T007),
// "Task 1.2", and, in dialects whose labels are numbers, bare "1.2".
func extractRefs(s string, numeric bool) []string {
	var out []string
	for _, m := range refTRe.FindAllStringSubmatch(s, -1) {
		from, ok := parseTID("T" + m[1])
		if !ok {
			continue
		}
		to, ok2 := parseTID("T" + m[2])
		if !ok2 || to < from || to-from > 200 {
			to = from
		}
		for n := from; n <= to; n++ {
			out = append(out, string(canonicalID(n)))
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, m := range refTaskRe.FindAllStringSubmatch(s, -1) {
		out = append(out, "task "+m[1])
	}
	if len(out) > 0 || !numeric {
		return out
	}
	for _, m := range refNumRe.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}
