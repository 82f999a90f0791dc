package taskgate

import (
	"context"
	"slices"
	"testing"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/gittest"
	"github.com/planx-dev/planx/internal/run/runstate"
)

// TestGateReach follows what the gates run: sourced files (by a path
// relative to the repository or to the script, through $(dirname "$0")
// and a variable holding it), shell scripts run by a script, a makefile's
// includes and recipes, package.json's test script. A program in another
// language and the code it runs are not followed (nor a program a
// task would build, ./bin/app), but a script sourced only once it exists
// (scripts/local.sh) is protected before it does; neither is the work
// tree: a script an executor changed is read as the base commit has it.
func TestGateReach(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.Init(t)
	for name, content := range map[string]string{
		"scripts/test.sh":      "#!/bin/sh\n. \"$(dirname \"$0\")/lib.sh\"\nrun_checks\nbash scripts/more.sh\n# sh scripts/commented.sh\n[ -f scripts/local.sh ] && . scripts/local.sh\n",
		"scripts/lib.sh":       "run_checks() { tools/check && echo ok; }\n",
		"tools/check":          "#!/usr/bin/env bash\nsource ./tools/check-helpers\n",
		"tools/check-helpers":  "true\n",
		"scripts/more.sh":      "DIR=$(cd \"$(dirname \"$0\")\" && pwd)\nsource \"$DIR/env.sh\"\npython tools/app.py --selftest\n./bin/app --selftest\n. \"${BASH_SOURCE%/*}/env2.sh\"\necho \"sh scripts/commented.sh\"\ncat <<EOF\nsh scripts/commented.sh\nEOF\n",
		"scripts/env2.sh":      "export Y=1\n",
		"scripts/env.sh":       "export X=1\n",
		"scripts/commented.sh": "exit 0\n",
		"tools/app.py":         "print('hi')\n",
		"Makefile":             "include common.mk\ntest:\n\t./ci/run.sh\n\t$(MAKE) lint\n",
		"common.mk":            "X = 1\n",
		"ci/run.sh":            "exit 0\n",
		"package.json":         `{"scripts": {"test": "sh check.sh && node run.js"}}`,
		"check.sh":             "exit 0\n",
		"run.js":               "\n",
	} {
		gittest.WriteFile(t, dir, name, content)
	}
	base := gitops.SHA(gittest.Commit(t, dir, "base"))
	// An executor's change to the work tree is not what the judge was.
	gittest.WriteFile(t, dir, "scripts/lib.sh", "run_checks() { sh scripts/planted.sh; }\n")
	gittest.WriteFile(t, dir, "scripts/planted.sh", "exit 0\n")
	repo, err := gitops.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	k := &Keeper{Repo: repo, State: &runstate.State{Base: base}, Gates: []gates.Gate{
		{Name: "unit", Command: "bash scripts/test.sh"},
		{Name: "make", Command: "make test"},
		{Name: "npm", Command: "npm test"},
	}}
	reach := k.Reach(ctx, "")
	got := reach.Paths()
	want := []string{"check.sh", "ci/run.sh", "common.mk", "scripts/env.sh", "scripts/env2.sh", "scripts/lib.sh", "scripts/local.sh", "scripts/more.sh", "tools/check", "tools/check-helpers"}
	if !slices.Equal(got, want) {
		t.Fatalf("reach = %v, want %v", got, want)
	}
	if why := reach["scripts/env.sh"]; why != "run by gate unit through scripts/more.sh" {
		t.Errorf("reach[scripts/env.sh] = %q", why)
	}
	if why := reach["check.sh"]; why != `run by gate npm through package.json's "test" script` {
		t.Errorf("reach[check.sh] = %q", why)
	}
	if why := reach["tools/app.py"]; why != "" {
		t.Errorf("reach[tools/app.py] = %q, want none: the code a gate runs is not the judge", why)
	}
}

// Without a repository there is nothing to read: the reach is empty, not
// nil, so that it is not read again.
func TestReachReadOnce(t *testing.T) {
	t.Parallel()
	k := &Keeper{State: &runstate.State{}}
	if got := k.Reach(context.Background(), "abc"); got == nil || len(got) != 0 {
		t.Fatalf("reach without a repository = %v, want empty", got)
	}
	if k.Reached() == nil {
		t.Error("Reached after Reach is nil")
	}
}
