package risk

import (
	"strings"
	"testing"
)

// A script of the repository a step runs is read and judged as the step:
// its deletion of ignored data is found, said in the script's file and
// line at the step's line; a script of another language, a binary, or
// one the work tree does not hold is judged by its name alone.
func TestScriptFileFollowed(t *testing.T) {
	files := map[string]string{
		"scripts/clean.sh": "#!/bin/sh\nset -e\nrm -rf data\n",
		"clean.sh":         "#!/usr/bin/env bash\necho tidy\nrm -f local.env\n",
		"env.sh":           "rm -rf data\n", // sourced: no #! needed
		"build.sh":         "#!/bin/sh\ngo build ./...\n",
		"gen.py":           "#!/usr/bin/env python3\nimport shutil; shutil.rmtree('data')\n",
		"bin/tool":         "\x7fELF\x00\x00rm -rf data",
		"outer.sh":         "#!/bin/sh\necho one\nsh scripts/clean.sh\n",
		"loop.sh":          "#!/bin/sh\nsh loop.sh\n",
		// written for many callers: its inputs are its arguments
		"generic.sh": "#!/bin/sh\nrun() { \"$@\"; }\ncheck() { if eval \"$2\"; then echo ok; fi; }\nrun echo hi\npython3 -c 'print(1)'\n",
	}
	rp := Repo{
		Ignored: func(p string) bool { return p == "data" || p == "local.env" },
		Script:  func(p string) (string, bool) { s, ok := files[p]; return s, ok },
	}
	for _, c := range []struct {
		script, rule, detail string
		line                 int
	}{
		{"sh scripts/clean.sh", "delete-ignored", "(scripts/clean.sh, line 3)", 1},
		{"echo x\n./clean.sh", "delete-ignored", "(clean.sh, line 3)", 2},
		{"bash -e ./clean.sh", "delete-ignored", "(clean.sh, line 3)", 1},
		{". ./env.sh", "delete-ignored", "(env.sh, line 1)", 1},
		// run in scripts/, its rm -rf data deletes scripts/data, not the
		// ignored data/
		{"cd scripts && sh ./clean.sh", "", "", 0},
		{"sh outer.sh", "delete-ignored", "(scripts/clean.sh, line 3)", 1},
		{"sh loop.sh", "dynamic-code", "nests scripts too deep", 1},
		{"sh build.sh", "", "", 0},
		{"./gen.py", "", "", 0},
		{"./bin/tool", "", "", 0},
		{"sh missing.sh", "", "", 0},
		{"sh generic.sh a b", "", "", 0},
	} {
		_, fs := rp.Classify(c.script)
		var got *Finding
		for i, f := range fs {
			if f.Rule == "delete-ignored" || f.Rule == "dynamic-code" {
				got = &fs[i]
			}
		}
		switch {
		case c.rule == "" && got != nil, c.script == "sh generic.sh a b" && len(fs) > 0:
			t.Errorf("%q: %v, want no deletion", c.script, fs)
		case c.rule != "" && (got == nil || got.Rule != c.rule || !strings.Contains(got.Detail, c.detail) || got.Line != c.line):
			t.Errorf("%q: %v, want %s at line %d with %q", c.script, fs, c.rule, c.line, c.detail)
		}
	}
	// Without a way to read scripts, as before: judged by the name.
	if _, fs := (Repo{Ignored: rp.Ignored}).Classify("sh scripts/clean.sh"); len(fs) != 0 {
		t.Errorf("without Script: %v, want none", fs)
	}
}
