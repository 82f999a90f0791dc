package planparse

import (
	"fmt"
	"strings"

	"github.com/planx-dev/planx/internal/suggest"
	"go.yaml.in/yaml/v3"
)

// The front matter keys planx reads or tolerates, and the keys of a gate.
// A front matter that sets one of planx's own keys (gates, agent, executor)
// is planx's, and an unknown key in it is an error naming the key meant;
// front matter written for another tool (Cursor, GSD, a blog generator) is
// left alone. A new key adds its name here.
var (
	frontMatterKeys = []string{"title", "name", "topic", "description", "overview", "status", "date", "created",
		"updated", "author", "tags", "version", "agent", "executor", "gates", "todos", "budget"}
	planxFrontMatterKeys = []string{"gates", "agent", "executor", "budget"}
	gateDeclKeys         = []string{"name", "command", "timeout", "when", "fix"}
)

// checkFrontMatterKeys reports unknown keys of a YAML front matter at
// their own line, and records the line of each declared gate.
func (b *builder) checkFrontMatterKeys() {
	d := b.d
	if d.fmLines < 3 || strings.TrimSpace(d.lineText(1)) != "---" {
		return // TOML front matter, or nothing inside the delimiters
	}
	raw := d.src[d.lines[1]:d.lineStart(d.fmLines)]
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return // reported by the decoder
	}
	root := doc.Content[0]
	const offset = 1 // the node lines count from the line after "---"
	ours := false
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := strings.ToLower(root.Content[i].Value)
		if suggest.Key(k, planxFrontMatterKeys) != "" {
			ours = true
		}
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		known := false
		for _, w := range frontMatterKeys {
			known = known || w == k.Value
		}
		if !known && ours {
			b.diag(SeverityError, k.Line+offset, fmt.Sprintf("front matter: unknown key %q", k.Value), suggest.Hint(k.Value, frontMatterKeys))
		}
		if k.Value == "gates" && v.Kind == yaml.SequenceNode {
			b.gateKeys(v, offset)
		}
	}
}

// gateKeys checks the keys of each declared gate and keeps its line.
func (b *builder) gateKeys(seq *yaml.Node, offset int) {
	for _, g := range seq.Content {
		b.gateLines = append(b.gateLines, g.Line+offset)
		if g.Kind != yaml.MappingNode {
			continue
		}
		for i := 0; i+1 < len(g.Content); i += 2 {
			k := g.Content[i]
			known := false
			for _, w := range gateDeclKeys {
				known = known || w == k.Value
			}
			if !known {
				b.diag(SeverityError, k.Line+offset, fmt.Sprintf("front matter: unknown gate key %q", k.Value), suggest.Hint(k.Value, gateDeclKeys))
			}
		}
	}
}

// gateLine is the line of the i-th declared gate, or the front matter's first line.
func (b *builder) gateLine(i int) int {
	if i < len(b.gateLines) {
		return b.gateLines[i]
	}
	return 1
}

// fmLine is the line of a top-level front matter key, or 1.
func (b *builder) fmLine(key string) int {
	for n := 2; n < b.d.fmLines; n++ {
		if l := b.d.lineText(n); strings.HasPrefix(l, key+":") || strings.HasPrefix(l, `"`+key+`":`) {
			return n
		}
	}
	return 1
}
