#!/usr/bin/env bash
# Gate runs per task on a 10-task agent plan (docs/judge.md): how many times
# planx runs the gate `go test ./...` — the task's own run, the baseline on
# the base commit, the judge's run with undeclared test files left out —
# the counterfactual run without the task's code — counted from the gate logs
# planx keeps under .git/planx/runs/<run>/.
#
#   bash bench/gateruns.sh              # every task implements its function (declared file only)
#   bash bench/gateruns.sh --own-tests  # every task also adds an undeclared test file
#   bash bench/gateruns.sh --fixes      # every task fixes a failing test and also edits a notes
#                                       # file: the counterfactual runs for each (the worst case)
set -euo pipefail
own=no fixes=no
[ "${1:-}" = "--own-tests" ] && own=yes
[ "${1:-}" = "--fixes" ] && fixes=yes
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GOCACHE=${GOCACHE:-$(go env GOCACHE)} GOMODCACHE=${GOMODCACHE:-$(go env GOMODCACHE)} GOTOOLCHAIN=local
export HOME=$work/home GIT_CONFIG_GLOBAL=$work/gitconfig GIT_CONFIG_NOSYSTEM=1 LC_ALL=C NO_COLOR=1
mkdir -p "$HOME"
git config --global user.name bench && git config --global user.email bench@example.com
(cd "$root" && go build -o "$work/planx" ./cmd/planx)

repo=$work/repo
mkdir -p "$repo" && cd "$repo" && git init -q -b main
printf 'module calc\n\ngo 1.22\n' > go.mod
{
  printf -- '---\ntopic: gateruns\ngates:\n  - name: test\n    command: go test ./...\n---\n# Ten functions\n\n'
  for i in $(seq 1 10); do
    printf -- '- [ ] T%03d Add F%d\n  Files:\n  - Create: f%d.go\n  - Create: f%d_test.go\n' "$i" "$i" "$i" "$i"
  done
} > plan.md
printf 'package calc\n\n// Base returns 1.\nfunc Base() int { return 1 }\n' > base.go
if [ $fixes = yes ]; then
  # The functions exist, wrong, with their tests failing; each task fixes one.
  sed -i 's/Create: f\([0-9]*\)_test.go/Modify: NOTES.md/; s/Create: f/Modify: f/' plan.md
  echo '# Notes' > NOTES.md
  for i in $(seq 1 10); do
    printf 'package calc\n\n// F%d returns its argument plus %d.\nfunc F%d(x int) int { return 0 }\n' $i $i $i > f$i.go
    printf 'package calc\n\nimport "testing"\n\nfunc TestF%d(t *testing.T) {\n\tif F%d(1) != %d {\n\t\tt.Fatal("F%d")\n\t}\n}\n' $i $i $((i + 1)) $i > f${i}_test.go
  done
fi
printf 'package calc\n\nimport "testing"\n\nfunc TestBase(t *testing.T) {\n\tif Base() != 1 {\n\t\tt.Fatal("base")\n\t}\n}\n' > base_test.go
git add -A && git commit -qm base

cat > "$work/agent.sh" <<AGENT
#!/bin/sh
set -e
i=\$(echo "\$PLANX_TASK_ID" | sed 's/^T0*//')
printf 'package calc\n\n// F%d returns its argument plus %d.\nfunc F%d(x int) int { return x + %d }\n' \$i \$i \$i \$i > f\$i.go
if [ $fixes = yes ]; then
  echo "- F\$i fixed" >> NOTES.md
  exit 0
fi
printf 'package calc\n\nimport "testing"\n\nfunc TestF%d(t *testing.T) {\n\tif F%d(1) != %d {\n\t\tt.Fatal("F%d")\n\t}\n}\n' \$i \$i \$((i + 1)) \$i > f\${i}_test.go
if [ $own = yes ]; then
  printf 'package calc\n\nimport "testing"\n\nfunc TestF%dMore(t *testing.T) {\n\tif F%d(2) != %d {\n\t\tt.Fatal("F%d")\n\t}\n}\n' \$i \$i \$((i + 2)) \$i > own\${i}_test.go
fi
AGENT
chmod +x "$work/agent.sh"
start=$(date +%s)
flags=()
# The tests of the functions not fixed yet fail before each task: known failures.
[ $fixes = yes ] && flags=(--accept-baseline-failures)
"$work/planx" run "${flags[@]}" --agent "$work/agent.sh" plan.md > "$work/out.txt"
secs=$(( $(date +%s) - start ))
run=$(ls .git/planx/runs | head -1)
logs=.git/planx/runs/$run
task=$(ls "$logs" | grep -cE '^T[0-9]+-test\.log$' || true)
base=$(ls "$logs" | grep -cE '^T[0-9]+-base-test\.log$' || true)
judge=$(ls "$logs" | grep -cE '^T[0-9]+-judge-test\.log$' || true)
counter=$(ls "$logs" | grep -cE '^T[0-9]+-counterfactual-test\.log$' || true)
commits=$(git log --format=%s | grep -c '^T0' || true)
total=$((task + base + judge + counter))
echo "own tests: $own; fixes: $fixes; $commits task commits in ${secs}s"
echo "gate runs: $task task, $base baseline, $judge judge, $counter counterfactual; $total in all, $(awk "BEGIN{printf \"%.2f\", $total/10}") per task"
git log -1 --format=%B | grep '^Planx-Tests'
