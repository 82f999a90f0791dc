package judge

import (
	"io/fs"
	"slices"
	"testing"
	"testing/fstest"
)

// TestScriptReader follows, with no repository, what a gate's seed runs:
// sourced files (relative to the repository or to the script, through
// $(dirname "$0") and a variable holding it), scripts run by a script, a
// makefile's includes and recipes, package.json's script. A program in
// another language is not followed, nor a quoted or commented name; a
// script sourced only once it exists (scripts/local.sh) is reported
// before it does.
func TestScriptReader(t *testing.T) {
	files := fstest.MapFS{}
	for name, content := range map[string]string{
		"scripts/test.sh":      "#!/bin/sh\n. \"$(dirname \"$0\")/lib.sh\"\nrun_checks\nbash scripts/more.sh\n# sh scripts/commented.sh\n[ -f scripts/local.sh ] && . scripts/local.sh\n",
		"scripts/lib.sh":       "run_checks() { tools/check && echo ok; }\n",
		"tools/check":          "#!/usr/bin/env bash\nsource ./tools/check-helpers\n",
		"tools/check-helpers":  "true\n",
		"scripts/more.sh":      "DIR=$(cd \"$(dirname \"$0\")\" && pwd)\nsource \"$DIR/env.sh\"\npython tools/app.py --selftest\n./bin/app --selftest\necho \"sh scripts/commented.sh\"\n",
		"scripts/env.sh":       "export X=1\n",
		"scripts/commented.sh": "exit 0\n",
		"tools/app.py":         "print('hi')\n",
		"Makefile":             "include common.mk\ntest:\n\t./ci/run.sh\n",
		"common.mk":            "X = 1\n",
		"ci/run.sh":            "exit 0\n",
		"package.json":         `{"scripts": {"test": "sh check.sh && node run.js"}}`,
		"check.sh":             "exit 0\n",
	} {
		files[name] = &fstest.MapFile{Data: []byte(content)}
	}
	reads := map[string]int{}
	rd := NewScriptReader(func(p string) ([]byte, bool) {
		reads[p]++
		b, err := fs.ReadFile(files, p)
		return b, err == nil
	})
	via := map[string]string{}
	for _, seed := range []string{"scripts/test.sh", "Makefile", "package.json#test", "scripts/test.sh"} {
		rd.Follow(seed, func(p, from string) { via[p] = from })
	}
	var got []string
	for p := range via {
		got = append(got, p)
	}
	slices.Sort(got)
	want := []string{"check.sh", "ci/run.sh", "common.mk", "scripts/env.sh", "scripts/lib.sh", "scripts/local.sh", "scripts/more.sh", "tools/check", "tools/check-helpers"}
	if !slices.Equal(got, want) {
		t.Fatalf("reached %v, want %v", got, want)
	}
	for p, from := range map[string]string{"scripts/env.sh": "scripts/more.sh", "check.sh": `package.json's "test" script`, "common.mk": "Makefile"} {
		if via[p] != from {
			t.Errorf("%s reached through %q, want %q", p, via[p], from)
		}
	}
	for p, n := range reads {
		if n > 1 {
			t.Errorf("%s read %d times, want once", p, n)
		}
	}
}
