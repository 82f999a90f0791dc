#!/usr/bin/env bash
# What the clean checkout of an agent task's gates costs per task in a large
# repository: a 5-task agent plan (a scripted agent writes one file per
# task; the gate is `test -f plan.md`) run by planx, the gates in a slot of
# the run reused from task to task (the default for agent tasks), against
# the same plan with the gates in the work tree (--clean-gates=false: no
# checkout at all). A task's time is from its "[i/5]" line to its
# "committed" line in planx's output.
#
#   bash bench/cleangates.sh                  # 20,000 files
#   bash bench/cleangates.sh --files 2000
#   bash bench/cleangates.sh --against main   # also planx built from main, --clean-gates
#                                             # (there: a fresh git worktree add per task)
#
# The repository comes from bench/gen (same layout as bench/run.sh),
# generated once into $CACHE (default $TMPDIR/planx-cleangates) and copied
# for each run.
set -euo pipefail
files=20000 against=
while [ $# -gt 0 ]; do
  case $1 in
  --files) files=$2; shift 2 ;;
  --against) against=$2; shift 2 ;;
  *) echo "usage: $0 [--files N] [--against REV]" >&2; exit 2 ;;
  esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${CACHE:-${TMPDIR:-/tmp}/planx-cleangates}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GOCACHE=${GOCACHE:-$(go env GOCACHE)} GOMODCACHE=${GOMODCACHE:-$(go env GOMODCACHE)} GOTOOLCHAIN=local
export HOME=$work/home GIT_CONFIG_GLOBAL=$work/gitconfig GIT_CONFIG_NOSYSTEM=1 LC_ALL=C NO_COLOR=1
mkdir -p "$HOME" "$CACHE"
git config --global user.name bench && git config --global user.email bench@example.com
(cd "$root" && go build -o "$work/planx" ./cmd/planx && go build -o "$CACHE/gen" ./bench/gen)
if [ -n "$against" ]; then
  mkdir -p "$work/old" && git -C "$root" archive "$against" | tar -x -C "$work/old"
  (cd "$work/old" && go build -o "$work/planx-old" ./cmd/planx)
fi

src=$CACHE/r$files
if [ ! -d "$src/.git" ]; then
  rm -rf "$src" && mkdir -p "$src" && "$CACHE/gen" repo -files "$files" -dir "$src"
  {
    printf -- '---\ntopic: cleangates\ngates:\n  - name: present\n    command: test -f plan.md\n---\n# Five notes\n\n'
    for i in 1 2 3 4 5; do printf -- '- [ ] T%03d Add note %d\n  Files:\n  - Create: notes/%d.txt\n' "$i" "$i" "$i"; done
  } > "$src/plan.md"
  printf 'node_modules/\n' > "$src/.gitignore"
  (cd "$src" && git init -q -b main && git add -A && git commit -qm base && git repack -adq)
fi
cat > "$work/agent.sh" <<'AGENT'
#!/bin/sh
set -e
i=$(echo "$PLANX_TASK_ID" | sed 's/^T0*//')
mkdir -p notes && echo "note $i" > notes/$i.txt
AGENT
chmod +x "$work/agent.sh"

# run NAME PLANX ARGS...: the plan on a fresh copy; prints each task's ms.
run() {
  local name=$1 bin=$2
  shift 2
  local repo=$work/repo-$name
  cp -a "$src" "$repo"
  mkdir -p "$repo/node_modules/lib" && echo 'x' > "$repo/node_modules/lib/index.js"
  local t0=$EPOCHREALTIME
  (cd "$repo" && "$bin" run "$@" --agent "$work/agent.sh" plan.md) |
    while IFS= read -r line; do printf '%s %s\n' "$EPOCHREALTIME" "$line"; done > "$work/out-$name.txt"
  local t1=$EPOCHREALTIME
  grep -q 'done: 5 task(s) committed' "$work/out-$name.txt" || { cat "$work/out-$name.txt" >&2; exit 1; }
  awk -v name="$name" -v total="$(echo "($t1 - $t0) * 1000" | bc)" '
    / \[[0-9]\/5\] T0/ { start = $1 }
    / committed / { ms[++n] = ($1 - start) * 1000 }
    END {
      printf "%-22s", name
      for (i = 1; i <= n; i++) printf " %7.0f", ms[i]
      printf "   run %6.0f ms\n", total
    }' "$work/out-$name.txt"
  rm -rf "$repo"
}

echo "files=$files  load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
printf '%-22s %7s %7s %7s %7s %7s   (ms per task; run: the whole planx run)\n' '' T001 T002 T003 T004 T005
run slot "$work/planx"
run worktree "$work/planx" --clean-gates=false
if [ -n "$against" ]; then
  run "$against --clean-gates" "$work/planx-old" --clean-gates
fi
