package planparse

import (
	"fmt"
	"strings"
	"testing"
)

// genNativePlan writes a native plan of n heading tasks, each with fields,
// a documentation block and a run step, every task depending on the one before.
func genNativePlan(n int) []byte {
	var sb strings.Builder
	sb.WriteString("---\ntitle: Generated\ngates:\n  - name: test\n    command: go test ./...\n---\n\n# Generated\n\n")
	for i := 1; i <= n; i++ {
		if i%50 == 1 {
			fmt.Fprintf(&sb, "## Phase %d\n\n", i/50+1)
		}
		fmt.Fprintf(&sb, "### [ ] T%03d: Task number %d\n\n", i, i)
		if i > 1 {
			fmt.Fprintf(&sb, "Depends on: T%03d\n", i-1)
		}
		fmt.Fprintf(&sb, "Files:\n- Create: pkg/p%d/file.go\n- Test: pkg/p%d/file_test.go\n", i, i)
		sb.WriteString("Acceptance:\n- it builds\n- tests pass\n\n")
		sb.WriteString("```bash\necho documentation\n```\n\n")
		fmt.Fprintf(&sb, "```sh run\nmkdir -p pkg/p%d\necho ok > pkg/p%d/file.go\n```\n\n", i, i)
	}
	return []byte(sb.String())
}

func benchParse(b *testing.B, n int) {
	src := genNativePlan(n)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		p, err := Parse("gen.md", src, Options{})
		if err != nil || len(p.Tasks) != n || p.Err() != nil {
			b.Fatalf("tasks %d err %v %v", len(p.Tasks), err, p.Err())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/task")
}

func BenchmarkParse1k(b *testing.B)  { benchParse(b, 1000) }
func BenchmarkParse10k(b *testing.B) { benchParse(b, 10000) }

// TestParseLinear guards against quadratic behaviour without timing noise:
// a 10x larger plan must not take more than ~30x as long.
func TestParseLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	small, large := testing.Benchmark(func(b *testing.B) { benchParse(b, 200) }), testing.Benchmark(func(b *testing.B) { benchParse(b, 2000) })
	ratio := float64(large.NsPerOp()) / float64(small.NsPerOp())
	if ratio > 30 {
		t.Errorf("2000 tasks took %.1fx as long as 200 (want about 10x)", ratio)
	}
}
