package space

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// BenchmarkOpen makes a space over a work tree (the whole machine's, and
// the work tree's only: TreeOnly, a task's steps'), runs true in it, reads
// its (empty) change set and removes it: the cost must not grow with the
// number of files in the tree.
func BenchmarkOpen(b *testing.B) {
	available(b)
	base := b.TempDir()
	for _, n := range []int{20000, 80000} {
		tree := filepath.Join(base, "tree"+strconv.Itoa(n))
		for i := 0; i < n; i++ {
			dir := filepath.Join(tree, fmt.Sprintf("d%03d", i/100))
			if i%100 == 0 {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					b.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%05d.go", i)), []byte("package x\n"), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		for _, treeOnly := range []bool{false, true} {
			b.Run(fmt.Sprintf("files=%d/tree-only=%v", n, treeOnly), func(b *testing.B) {
				openRunClose(b, tree, filepath.Join(base, "space"), treeOnly)
			})
		}
	}
}

// openRunClose is one round of BenchmarkOpen, b.N times.
func openRunClose(b *testing.B, tree, dir string, treeOnly bool) {
	for i := 0; i < b.N; i++ {
		s, err := Open(Options{Root: tree, Dir: dir, TreeOnly: treeOnly})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Run(context.Background(), exec.Command("true")); err != nil {
			b.Fatal(err)
		}
		cs, err := s.Changes()
		if err != nil || !cs.Empty() {
			b.Fatalf("changes of true: %+v, %v", cs, err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
