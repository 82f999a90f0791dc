#!/usr/bin/env bash
# What a clean linked worktree of the staged tree costs per task, as
# `planx run --clean-gates` makes it: git write-tree, git commit-tree,
# git worktree add --detach (hooks off), git worktree remove --force --force.
#
#   bash bench/clean-gates.sh [SIZES...]      # default: 200 20000 80000
#   REPS=5 bash bench/clean-gates.sh 200 2000
#
# Repositories come from bench/gen (same layout as bench/run.sh), generated
# once into $CACHE (default $TMPDIR/planx-clean-gates). Prints the median of
# REPS (default 3) runs in milliseconds.
set -euo pipefail
REPS=${REPS:-3}
CACHE=${CACHE:-${TMPDIR:-/tmp}/planx-clean-gates}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$CACHE"
go build -o "$CACHE/gen" "$root/bench/gen"
ms() { echo "($2 - $1) * 1000" | bc; }
for n in "${@:-200 20000 80000}"; do
  for size in $n; do
    src=$CACHE/r$size
    if [ ! -d "$src/.git" ]; then
      mkdir -p "$src" && "$CACHE/gen" repo -files "$size" -dir "$src"
      (cd "$src" && git init -q -b main && git add -A &&
        git -c user.name=bench -c user.email=bench@example.invalid commit -qm base && git repack -adq)
    fi
    work=$(mktemp -d "$CACHE/work.XXXX")
    cp -a "$src/." "$work/"
    cd "$work"
    echo change >> README* && git add -A
    rows=()
    for _ in $(seq "$REPS"); do
      t0=$EPOCHREALTIME
      c=$(git commit-tree "$(git write-tree)" -p HEAD -m staged)
      wt=$(mktemp -d "$CACHE/wt.XXXX")/tree
      git -c core.hooksPath=/dev/null worktree add --detach --quiet "$wt" "$c"
      t1=$EPOCHREALTIME
      git worktree remove --force --force "$wt" && rmdir "$(dirname "$wt")"
      t2=$EPOCHREALTIME
      rows+=("$(ms "$t0" "$t1") $(ms "$t1" "$t2") $(ms "$t0" "$t2")")
    done
    printf '%s\n' "${rows[@]}" | sort -n -k3 |
      awk -v n="$size" -v r="$REPS" 'NR == int((r + 1) / 2) {
        printf "files=%d  create=%.0fms  remove=%.0fms  total=%.0fms  (median of %d)\n", n, $1, $2, $3, r }'
    cd / && rm -rf "$work"
  done
done
