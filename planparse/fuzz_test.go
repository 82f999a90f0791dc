package planparse

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that no input makes the parser panic and that what it
// reports about positions is true of the source: task ranges, lines and
// checkbox offsets point where they say, and Tick changes exactly one byte.
func FuzzParse(f *testing.F) {
	for _, p := range fixtures(f) {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	if _, err := os.Stat(corpusDir); err == nil {
		_ = filepath.WalkDir(corpusDir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if src, err := os.ReadFile(p); err == nil {
					f.Add(src)
				}
			}
			return nil
		})
	}
	for _, s := range []string{"", "---", "---\n", "```", "- [ ]", "- [ ] T1", "### [x] T0:", "{", "[1]",
		"# Task ID: 1\n# Subtasks:\n## 1. a [done]\n", "- [-]*\r\n  - [ ] 1.1\r", "\ufeff### T001: a\n```sh run\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := Parse("fuzz.md", src, Options{})
		if err != nil {
			return
		}
		if !bytes.Equal(p.Source, src) {
			t.Fatal("Plan.Source is not the input")
		}
		for _, tk := range p.Tasks {
			if tk.Start < 0 || tk.End > len(src) || tk.Start > tk.End || tk.Body != string(src[tk.Start:tk.End]) {
				t.Fatalf("%s: bad range [%d,%d) of %d", tk.ID, tk.Start, tk.End, len(src))
			}
			if tk.Line < 1 {
				t.Fatalf("%s: line %d", tk.ID, tk.Line)
			}
			if tk.Checkbox < 0 {
				continue
			}
			if tk.Checkbox < 1 || tk.Checkbox+1 >= len(src) || src[tk.Checkbox-1] != '[' || src[tk.Checkbox+1] != ']' {
				t.Fatalf("%s: checkbox offset %d is not inside [ ]", tk.ID, tk.Checkbox)
			}
			out, ok := Tick(src, tk)
			diff := 0
			for i := range out {
				if out[i] != src[i] {
					diff++
				}
			}
			if ok != (diff == 1) || len(out) != len(src) {
				t.Fatalf("%s: Tick ok=%v changed %d bytes", tk.ID, ok, diff)
			}
			_ = tk.Hash()
		}
		_ = p.Order()
		_ = p.Err()
	})
}
