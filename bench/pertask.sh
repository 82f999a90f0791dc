#!/usr/bin/env bash
# bench/pertask.sh: does a task cost more late in a long run than early?
#
# Runs a plan of N one-line shell tasks (default 2,000; no gates, no hooks)
# in a small repository with the compiled planx, stamps each task's
# "committed" line as it is printed, and prints the wall time per task of
# the first 200 and the last 200 tasks and their ratio (1.00 is flat). No
# timed assertion: a number to read, on a quiet machine.
#
# See bench/README.md.
set -euo pipefail

tasks=${1:-2000}
window=200
[[ $tasks =~ ^[1-9][0-9]*$ ]] && [ "$tasks" -ge $((2 * window)) ] ||
	{ echo "usage: bash bench/pertask.sh [TASKS >= $((2 * window))] [--gc]" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/planx-pertask.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/planx" ./cmd/planx)

export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config"
export GIT_CONFIG_GLOBAL="$HOME/.gitconfig" GIT_CONFIG_NOSYSTEM=1
export LC_ALL=C TZ=UTC NO_COLOR=1 GIT_TERMINAL_PROMPT=0 CI=
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
mkdir -p "$HOME"
# git's automatic gc is off, as in run.sh: a 2,000-task run writes enough
# loose objects (about 7 per task: the task's file, the plan, the log, their
# trees, the commit) that git commit starts `gc --auto` from about the
# 950th task on, whose repack then runs detached, beside the tasks that
# follow, and is counted as theirs. --gc leaves it on, to see it.
gc=0
[ "${2:-}" = --gc ] && gc=6700
printf '[user]\n\tname = Planx Bench\n\temail = bench@planx.invalid\n[init]\n\tdefaultBranch = main\n[gc]\n\tauto = %s\n[maintenance]\n\tauto = %s\n' "$gc" "$([ "$gc" = 0 ] && echo false || echo true)" >"$GIT_CONFIG_GLOBAL"

repo=$tmp/repo
mkdir -p "$repo" && cd "$repo"
git init -q
{
	printf -- '---\ntopic: pertask\n---\n# Per task\n\n'
	for ((i = 1; i <= tasks; i++)); do
		printf -- '- [ ] T%03d Append %d\n  ```sh run\n  echo %d >> f%d.txt\n  ```\n' "$i" "$i" "$i" $((i % 50))
	done
} >plan.md
git add -A && git commit -qm base

now_us() { local t=${EPOCHREALTIME:-}; if [ -n "$t" ]; then echo "${t/./}"; else date +%s%6N; fi; }
"$tmp/planx" run plan.md | while IFS= read -r line; do
	case $line in *"✓ committed"*) now_us ;; esac
done >"$tmp/stamps"
n=$(wc -l <"$tmp/stamps")
[ "$n" = "$tasks" ] || { echo "pertask.sh: $n of $tasks tasks committed" >&2; exit 1; }

echo "planx per-task cost over a $tasks-task run, $(date -u +%FT%TZ), $(nproc) CPUs, $(git --version)"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo NA); git gc.auto=$gc"
awk -v n="$tasks" -v w="$window" '
	{ t[NR] = $1 }
	END {
		first = (t[w + 1] - t[1]) / w / 1000
		last = (t[n] - t[n - w]) / w / 1000
		printf "first %d tasks: %.1f ms/task   last %d tasks: %.1f ms/task   last/first %.2f\n", w, first, w, last, last / first
	}' "$tmp/stamps"
size=$(wc -c <"$(ls memory-bank/execute/*.md)")
echo "execution log at the end: $size bytes (rewritten and committed with every task)"
