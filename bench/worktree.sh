#!/usr/bin/env bash
# bench/worktree.sh: what one linked work tree costs planx's parallel waves
# (`git worktree add --detach` of the branch tip, then `git worktree remove`)
# at several repository sizes. Medians of --reps runs, milliseconds.
# --settle S waits S seconds before each add: ext4 slows the creation of
# files for up to 6 minutes after many were deleted, as each remove does
# (see parallel.sh).
#   bash bench/worktree.sh [--sizes 200,20000] [--reps 5] [--settle 0]
set -euo pipefail
sizes=200,20000
reps=5
settle=0
while [ $# -gt 0 ]; do
	case $1 in
	--sizes) sizes=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--settle) settle=$2; shift 2 ;;
	*) echo "usage: bash bench/worktree.sh [--sizes LIST] [--reps N] [--settle S]" >&2; exit 2 ;;
	esac
done
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null LC_ALL=C
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
go build -o "$scratch/gen" "$here/gen"
ms() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf 'files\tadd_ms\tremove_ms\n'
for n in ${sizes//,/ }; do
	repo=$scratch/r$n
	"$scratch/gen" -files "$n" -dir "$repo" >/dev/null
	git -C "$repo" init -q -b main
	git -C "$repo" add -A
	git -C "$repo" commit -q -m base
	adds=() rms=()
	for i in $(seq "$reps"); do
		wt=$repo/.git/planx/worktrees/bench/T$i
		sync
		sleep "$settle"
		t0=$(ms)
		git -C "$repo" -c core.hooksPath=/dev/null worktree add --detach --quiet "$wt" HEAD
		t1=$(ms)
		git -C "$repo" worktree remove --force --force "$wt"
		t2=$(ms)
		adds+=($(((t1 - t0) / 1000000))) rms+=($(((t2 - t1) / 1000000)))
	done
	printf '%s\t%s\t%s\n' "$n" "$(printf '%s\n' "${adds[@]}" | median)" "$(printf '%s\n' "${rms[@]}" | median)"
done
