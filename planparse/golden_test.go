package planparse

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the testdata golden files")

// fixtures lists the plan fixtures under testdata (golden outputs excluded).
func fixtures(t testing.TB) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir("testdata", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || strings.HasSuffix(p, ".golden.json") || strings.Contains(p, string(filepath.Separator)+"fuzz"+string(filepath.Separator)) {
			return nil
		}
		out = append(out, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("no fixtures under testdata")
	}
	return out
}

// TestGolden parses every fixture and compares the whole Plan, as JSON,
// with its .golden.json file. Refresh with: go test ./planparse -update
func TestGolden(t *testing.T) {
	for _, path := range fixtures(t) {
		t.Run(filepath.ToSlash(path), func(t *testing.T) {
			p, err := ParseFile(filepath.ToSlash(path), Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(p, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := strings.TrimSuffix(path, filepath.Ext(path)) + ".golden.json"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./planparse -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("plan differs from %s (run go test ./planparse -update and review the diff)\ngot:\n%s", golden, got)
			}
		})
	}
}
