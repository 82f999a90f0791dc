package planparse

import (
	"bytes"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	"go.abhg.dev/goldmark/frontmatter"
)

type blockKind uint8

const (
	bOther blockKind = iota
	bHeading
	bItem
	bPara
	bFence
	bTable
)

// block is a flattened goldmark block node. Dialect parsers work on this
// pre-order list rather than on the AST so they can look ahead and behind
// cheaply, and so every position is a byte offset into the original source.
type block struct {
	kind  blockKind
	level int // heading level, or list nesting depth for items (0 = outermost)
	pos   int // offset of the block's marker or first character
	start int // offset of the start of the line holding pos
	line  int // 1-based line of pos
	next  int // index in doc.blocks of the first block after this block's subtree
	item  int // index of the nearest enclosing list item, -1 at top level
	up    int // index of the parent block, -1 at top level

	text string // heading text, item text after marker and checkbox, paragraph first line
	last string // paragraph: its last line, where a lead-in label such as "**Acceptance:**" sits

	// list items
	cb      int  // offset of the checkbox character, -1 when none
	mark    byte // checkbox character: ' ', 'x', 'X' or '-'
	star    bool // Kiro's "[ ]*" optional marker
	ordered bool

	// fenced code blocks
	info     string
	code     string
	codeLine int
	closed   bool
	lastLine int // 0-based: the closing fence's line, or the last line the block holds
}

// doc is a markdown source parsed once and shared by all dialect parsers.
type doc struct {
	src     []byte
	lines   []int // offset of the start of each line
	blocks  []block
	inCode  []bool // per 0-based line: inside a code block (fence lines included)
	fm      *frontmatter.Data
	fmLines int // number of lines the front matter occupies
	deep    int // first line whose nesting was cut (see flattenDeep), 0 for none
	// str is src as one string: block texts are slices of it, not copies.
	str string
}

// Item lines: marker, spacing, optional checkbox with Kiro's optional star.
var itemHeadRe = regexp.MustCompile(`^([-*+]|\d{1,9}[.)])([ \t]+|$)(?:\[([ xX\-])\](\*?)(?:[ \t]+|$))?`)

func newDoc(src []byte) *doc {
	d := &doc{src: src, str: string(src), lines: lineStarts(src)}
	d.inCode = make([]bool, len(d.lines))

	p := parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		// Only the task-list inline parser: planx needs block structure, and
		// skipping emphasis and link parsing keeps the parse linear.
		parser.WithInlineParsers(util.Prioritized(extension.NewTaskCheckBoxParser(), 0)),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
		// GFM tables: memory-bank plans list their tasks in one.
		parser.WithParagraphTransformers(util.Prioritized(extension.NewTableParagraphTransformer(), 200)),
	)
	p.AddOptions(parser.WithBlockParsers(util.Prioritized(&frontmatter.Parser{}, 0)))
	pc := parser.NewContext()
	// goldmark reads a copy with over-deep nesting flattened: same bytes
	// otherwise, so its offsets index src.
	flat, deep, markers := flattenDeep(src)
	d.deep = deep
	root := p.Parse(text.NewReader(flat), parser.WithContext(pc))
	d.fm = frontmatter.Get(pc)
	if d.fm != nil {
		d.fmLines = frontMatterLines(src, d.lines)
	}
	// Roughly one block per two lines, and a list and an item per list
	// marker; growing the slice dominated allocation.
	d.blocks = make([]block, 0, len(d.lines)/2+2*markers+16)
	d.walk(root, -1, -1, 0)
	return d
}

// frontMatterLines counts the lines of a front-matter block including both
// delimiters, or all lines when the closing delimiter is missing.
func frontMatterLines(src []byte, lines []int) int {
	first := bytes.TrimRight(lineBytes(src, lines, 0), " \t")
	for i := 1; i < len(lines); i++ {
		if bytes.Equal(bytes.TrimRight(lineBytes(src, lines, i), " \t"), first) {
			return i + 1
		}
	}
	return len(lines)
}

// lineBytes returns 0-based line i without its line ending.
func lineBytes(src []byte, lines []int, i int) []byte {
	s := lines[i]
	e := len(src)
	if i+1 < len(lines) {
		e = lines[i+1]
	}
	b := src[s:e]
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// lineOf returns the 0-based line holding offset off.
func (d *doc) lineOf(off int) int {
	return sort.Search(len(d.lines), func(i int) bool { return d.lines[i] > off }) - 1
}

// lineText returns 1-based line n without its line ending.
func (d *doc) lineText(n int) string {
	if n < 1 || n > len(d.lines) {
		return ""
	}
	return string(lineBytes(d.src, d.lines, n-1))
}

// lineStart returns the offset of 1-based line n, or len(src) past the end.
func (d *doc) lineStart(n int) int {
	if n-1 >= len(d.lines) {
		return len(d.src)
	}
	if n < 1 {
		return 0
	}
	return d.lines[n-1]
}

func nodePos(n ast.Node) int {
	if p := n.Pos(); p >= 0 {
		return p
	}
	if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
		return n.Lines().At(0).Start
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Type() == ast.TypeBlock {
			if p := nodePos(c); p >= 0 {
				return p
			}
		}
	}
	return -1
}

func (d *doc) walk(n ast.Node, up, item, depth int) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Type() != ast.TypeBlock {
			continue
		}
		pos := nodePos(c)
		if pos < 0 || pos > len(d.src) {
			d.walk(c, up, item, depth)
			continue
		}
		ln := d.lineOf(pos)
		idx := len(d.blocks)
		d.blocks = append(d.blocks, block{pos: pos, start: d.lines[ln], line: ln + 1, item: item, up: up, cb: -1})
		childItem, childDepth := item, depth
		switch v := c.(type) {
		case *ast.Heading:
			d.heading(idx, v)
		case *ast.ListItem:
			d.listItem(idx, depth)
			if l, ok := v.Parent().(*ast.List); ok {
				d.blocks[idx].ordered = l.IsOrdered()
			}
			childItem, childDepth = idx, depth+1
		case *ast.Paragraph, *ast.TextBlock:
			d.paragraph(idx, c)
		case *ast.FencedCodeBlock:
			d.fence(idx, v)
		case *ast.CodeBlock:
			d.markCode(c.Lines())
		case *east.Table:
			d.blocks[idx].kind = bTable
		}
		d.walk(c, idx, childItem, childDepth)
		d.blocks[idx].next = len(d.blocks)
	}
}

func (d *doc) heading(idx int, h *ast.Heading) {
	b := &d.blocks[idx]
	b.kind, b.level = bHeading, h.Level
	if h.Lines().Len() > 0 {
		seg := h.Lines().At(0)
		b.text = cleanHeading(d.text(seg.Start, seg.Stop))
	}
}

func (d *doc) listItem(idx, depth int) {
	b := &d.blocks[idx]
	b.kind, b.level = bItem, depth
	end := len(d.src)
	if b.line < len(d.lines) {
		end = d.lines[b.line]
	}
	raw := d.src[b.pos:end]
	raw = bytes.TrimSuffix(bytes.TrimSuffix(raw, []byte("\n")), []byte("\r"))
	m := itemHeadRe.FindSubmatchIndex(raw)
	if m == nil {
		return
	}
	if m[6] >= 0 {
		b.cb = b.pos + m[6]
		b.mark = raw[m[6]]
		b.star = m[9] > m[8]
	}
	b.text = d.text(b.pos+m[1], b.pos+len(raw))
}

// maxLineText bounds the text a block keeps of its line: titles and labels
// live in the first few hundred bytes, and the regular expressions that
// read them then never scan a whole megabyte-long line.
const maxLineText = 1024

// text returns src[start:stop] trimmed, at most maxLineText bytes cut at a
// character boundary, as a slice of the one string copy of the source.
func (d *doc) text(start, stop int) string {
	s := strings.TrimSpace(d.str[start:stop])
	if len(s) <= maxLineText {
		return s
	}
	n := maxLineText
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func (d *doc) paragraph(idx int, n ast.Node) {
	b := &d.blocks[idx]
	b.kind = bPara
	lines := n.Lines()
	if lines.Len() == 0 {
		return
	}
	first, lastSeg := lines.At(0), lines.At(lines.Len()-1)
	b.text = d.text(first.Start, first.Stop)
	b.last = d.text(lastSeg.Start, lastSeg.Stop)
}

func (d *doc) fence(idx int, f *ast.FencedCodeBlock) {
	b := &d.blocks[idx]
	b.kind = bFence
	if f.Info != nil {
		b.info = string(bytes.TrimSpace(f.Info.Segment.Value(d.src)))
	}
	open := b.line - 1 // 0-based line of the opening fence
	lines := f.Lines()
	var buf bytes.Buffer
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		buf.Write(seg.Value(d.src))
	}
	b.code = string(bytes.ReplaceAll(buf.Bytes(), []byte("\r\n"), []byte("\n")))
	b.codeLine = b.line + 1
	last := open
	if lines.Len() > 0 {
		b.codeLine = d.lineOf(lines.At(0).Start) + 1
		last = d.lineOf(lines.At(lines.Len() - 1).Start)
	}
	// The block starts at the fence characters, even after a list marker.
	opener := d.src[b.pos:d.lineStart(b.line+1)]
	closeAt := last + 1
	if closeAt < len(d.lines) && isClosingFence(opener, lineBytes(d.src, d.lines, closeAt)) {
		b.closed = true
		last = closeAt
	}
	b.lastLine = last
	for i := open; i <= last && i < len(d.inCode); i++ {
		d.inCode[i] = true
	}
}

// isClosingFence reports whether line closes a fence opened by opener
// (same character, at least as long, nothing else on the line).
func isClosingFence(opener, line []byte) bool {
	if len(opener) == 0 {
		return false
	}
	c := opener[0]
	n := 0
	for n < len(opener) && opener[n] == c {
		n++
	}
	l := bytes.TrimLeft(line, " \t>")
	m := 0
	for m < len(l) && l[m] == c {
		m++
	}
	return m >= n && len(bytes.TrimSpace(l[m:])) == 0
}

func (d *doc) markCode(lines *text.Segments) {
	for i := 0; i < lines.Len(); i++ {
		if ln := d.lineOf(lines.At(i).Start); ln >= 0 && ln < len(d.inCode) {
			d.inCode[ln] = true
		}
	}
}

// subtreeEnd is the offset just past block i's last non-blank line: the
// start of the next block outside its subtree, with blank lines given back.
func (d *doc) subtreeEnd(i int) int {
	end := len(d.src)
	if n := d.blocks[i].next; n < len(d.blocks) {
		end = d.blocks[n].start
	}
	return d.trimBlank(d.blocks[i].start, end)
}

// trimBlank moves end back over blank lines, never before start.
func (d *doc) trimBlank(start, end int) int {
	for end > start {
		ln := d.lineOf(end - 1)
		if ln < 0 || d.lines[ln] < start || d.lines[ln] >= end {
			break
		}
		if len(bytes.TrimSpace(d.src[d.lines[ln]:end])) != 0 {
			break
		}
		end = d.lines[ln]
	}
	return end
}
