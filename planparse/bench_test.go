package planparse

import (
	"fmt"
	"runtime"
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

// TestParseLinear guards against quadratic behaviour without timing it (a
// wall-clock ratio fails on a loaded machine): the allocations, bytes and
// count, of a 10x larger plan must grow about 10x. Time itself is measured
// by BenchmarkParse1k/10k.
func TestParseLinear(t *testing.T) {
	measure := func(n int) (allocs, bytes float64) {
		src := genNativePlan(n)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		before, beforeBytes := ms.Mallocs, ms.TotalAlloc
		const runs = 3
		for range runs {
			if _, err := Parse("gen.md", src, Options{}); err != nil {
				t.Fatal(err)
			}
		}
		runtime.ReadMemStats(&ms)
		return float64(ms.Mallocs-before) / runs, float64(ms.TotalAlloc-beforeBytes) / runs
	}
	sa, sb := measure(200)
	la, lb := measure(2000)
	t.Logf("200 tasks: %.0f allocations, %.0f bytes; 2000 tasks: %.0f, %.0f", sa, sb, la, lb)
	if r := la / sa; r > 13 {
		t.Errorf("2000 tasks made %.1fx the allocations of 200 (want about 10x)", r)
	}
	if r := lb / sb; r > 13 {
		t.Errorf("2000 tasks allocated %.1fx the bytes of 200 (want about 10x)", r)
	}
}
