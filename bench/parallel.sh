#!/usr/bin/env bash
# bench/parallel.sh: `planx run --jobs 4` against `--jobs 1` on a plan of 12
# tasks in 3 waves of 4 [P] tasks. Each task's step sleeps 2 s and writes its
# own file; one gate sleeps 1 s. Checks that both runs give the same final
# tree (the execution log aside) and 12 task commits in plan order, and
# prints both wall times and their ratio (target <= 0.4). With --reps N the
# two sides alternate which goes first, and the medians are printed too.
# --settle S waits S seconds between making a rep's copies and timing them:
# ext4 slows the creation of files for up to 6 minutes after many were
# deleted (recently_deleted() in ialloc.c), which the copies and the
# removal of an earlier rep's work trees do (bench/README.md).
# --agent runs the same 12 tasks through an agent command instead of shell
# steps: a script that works 2 s and writes the task's own file (issue 25).
# --again runs the --jobs side a second time on the same copy, reset to the
# base (the same plan run again): its slots are the first run's, warm, and
# both times are printed, the second's ratio to --jobs 1 too.
# --setup N (with --agent) makes T001 change package.json, so that its
# gates' clean checkout installs node_modules/ afresh with a worktree_setup
# that takes N seconds; with --again the second run shows whether it paid
# the setup again (it runs once per slot for the same manifests).
#   bash bench/parallel.sh [--files 200] [--jobs 4] [--reps 1] [--settle 0] [--agent] [--again] [--setup N]
set -euo pipefail
files=200
jobs=4
reps=1
settle=0
agent=
again=
setup=
while [ $# -gt 0 ]; do
	case $1 in
	--files) files=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--settle) settle=$2; shift 2 ;;
	--agent) agent=1; shift ;;
	--again) again=1; shift ;;
	--setup) setup=$2; shift 2 ;;
	*) echo "usage: bash bench/parallel.sh [--files N] [--jobs N] [--reps N] [--settle S] [--agent] [--again] [--setup N]" >&2; exit 2 ;;
	esac
done
if [ -n "$setup" ] && [ -z "$agent" ]; then
	echo "--setup needs --agent: worktree_setup runs in the clean checkout of an agent task that changed a manifest" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null LC_ALL=C NO_COLOR=1
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
go build -o "$scratch/planx" "$here/../cmd/planx"
go build -o "$scratch/gen" "$here/gen"

plan() {
	printf -- '---\ntopic: parallel-bench\n'
	if [ -n "$agent" ]; then printf -- 'agent: sh bench-agent.sh\n'; fi
	printf -- 'gates:\n  - name: slow\n    command: sleep 1\n---\n# Parallel bench\n\n'
	for i in $(seq 1 12); do
		id=$(printf 'T%03d' "$i")
		printf -- '- [ ] %s [P] Write out/%s.txt\n' "$id" "$id"
		if [ -n "$setup" ] && [ "$i" = 1 ]; then
			printf -- '  Files: out/%s.txt, package.json\n' "$id"
		else
			printf -- '  Files: out/%s.txt\n' "$id"
		fi
		# The first task of waves 2 and 3 depends on the last of the wave before.
		if [ "$i" = 5 ] || [ "$i" = 9 ]; then
			printf -- '  Depends on: T%03d\n' $((i - 1))
		fi
		if [ -n "$agent" ]; then
			printf -- '  Executor: agent\n'
		else
			printf -- '  ```sh run\n  sleep 2; mkdir -p out; echo %s > out/%s.txt\n  ```\n' "$id" "$id"
		fi
	done
}

# The scripted agent: works 2 s, then writes the file of the task planx
# names in its environment, as the shell step above does.
agent_script() {
	printf '#!/bin/sh\nsleep 2\nmkdir -p out\necho "$PLANX_TASK_ID" > "out/$PLANX_TASK_ID.txt"\n'
	if [ -n "$setup" ]; then
		# T001 upgrades the dependency, as an agent that runs npm install would.
		printf 'if [ "$PLANX_TASK_ID" = T001 ]; then echo %s > package.json; fi\n' "'{\"dep\": 2}'"
	fi
}

"$scratch/gen" -files "$files" -dir "$scratch/base" >/dev/null
git -C "$scratch/base" init -q -b main
plan > "$scratch/base/plan.md"
if [ -n "$agent" ]; then agent_script > "$scratch/base/bench-agent.sh"; fi
if [ -n "$setup" ]; then
	echo '{"dep": 1}' > "$scratch/base/package.json"
	echo 'node_modules/' > "$scratch/base/.gitignore"
	printf 'worktree_setup: sleep %s; mkdir -p node_modules/dep; echo fresh > node_modules/dep/index.js\n' "$setup" > "$scratch/base/.planx.yaml"
fi
git -C "$scratch/base" add -A
# Packed now, not by a background auto gc racing the copies below.
git -C "$scratch/base" -c gc.auto=0 commit -q -m base
git -C "$scratch/base" tag base
# The user's installed dependencies, ignored: linked into clean checkouts.
if [ -n "$setup" ]; then mkdir -p "$scratch/base/node_modules/dep" && echo user > "$scratch/base/node_modules/dep/index.js"; fi
git -C "$scratch/base" repack -adq --window=0
git -C "$scratch/base" prune-packed

copy() { # dir: a fresh copy of the base, not timed
	cp -a "$scratch/base" "$scratch/$1"
	# Refresh the index cp made stale, as a user's repository would be.
	git -C "$scratch/$1" status --porcelain >/dev/null
}
wall() { # dir jobs -> seconds
	local t0 t1
	t0=$(date +%s%N)
	(cd "$scratch/$1" && "$scratch/planx" run --ci --jobs "$2" plan.md >"$scratch/$1.out" 2>&1) ||
		{ cat "$scratch/$1.out" >&2; exit 1; }
	t1=$(date +%s%N)
	echo "scale=2; ($t1 - $t0) / 1000000000" | bc
}
"$scratch/planx" run --jobs "$jobs" --dry-run -C "$scratch/base" plan.md | sed -n '/^Waves/,$p'
tree() { git -C "$scratch/$1" ls-tree -r HEAD | grep -v memory-bank/; }
subjects() { git -C "$scratch/$1" log --format=%s --grep='^T0' | tac; }
want=$(for i in $(seq 1 12); do printf 'T%03d: Write out/T%03d.txt\n' "$i" "$i"; done)
setups() { grep 'worktree_setup in the .* checkout: ' "$1" | grep -vc 'already ran in this slot' || true; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
serials=() pars=()
for rep in $(seq "$reps"); do
	# Copies are kept until the end: deleting one would slow the next.
	if [ "$rep" -gt 1 ]; then mv "$scratch/serial" "$scratch/serial.$rep" && mv "$scratch/par" "$scratch/par.$rep"; fi
	copy serial
	copy par
	sync
	sleep "$settle"
	if [ $((rep % 2)) = 1 ]; then
		serial=$(wall serial 1)
		par=$(wall par "$jobs")
	else
		par=$(wall par "$jobs")
		serial=$(wall serial 1)
	fi
	if [ "$(tree serial)" != "$(tree par)" ]; then echo "FAIL: final trees differ" >&2; exit 1; fi
	if [ "$(subjects serial)" != "$(subjects par)" ]; then echo "FAIL: commit order differs" >&2; exit 1; fi
	if [ "$(subjects par)" != "$want" ]; then echo "FAIL: not 12 task commits in plan order" >&2; subjects par >&2; exit 1; fi
	printf 'files=%s rep %s/%s  --jobs 1: %ss  --jobs %s: %ss  ratio %s (target <= 0.40)\n' "$files" "$rep" "$reps" "$serial" "$jobs" "$par" \
		"$(echo "scale=3; $par / $serial" | bc)"
	if [ -n "$again" ]; then
		first=$(tree par)
		cp "$scratch/par.out" "$scratch/par.first.out"
		git -C "$scratch/par" reset -q --hard base
		par2=$(wall par "$jobs")
		if [ "$(tree par)" != "$first" ] || [ "$(subjects par)" != "$want" ]; then echo "FAIL: the second run differs" >&2; exit 1; fi
		printf 'files=%s rep %s/%s  --jobs %s again on the same copy (warm slots): %ss  ratio %s to --jobs 1; worktree_setup ran %s time(s) in the first run, %s in the second (skipped %s)\n' \
			"$files" "$rep" "$reps" "$jobs" "$par2" "$(echo "scale=3; $par2 / $serial" | bc)" \
			"$(setups "$scratch/par.first.out")" "$(setups "$scratch/par.out")" "$(grep -c 'already ran in this slot' "$scratch/par.out" || true)"
	fi
	serials+=("$serial") pars+=("$par")
done
if [ "$reps" -gt 1 ]; then
	ms=$(printf '%s\n' "${serials[@]}" | median) mp=$(printf '%s\n' "${pars[@]}" | median)
	printf 'files=%s medians of %s  --jobs 1: %ss  --jobs %s: %ss  ratio %s (target <= 0.40)\n' "$files" "$reps" "$ms" "$jobs" "$mp" \
		"$(echo "scale=3; $mp / $ms" | bc)"
fi
echo "same final tree (log aside), 12 task commits in plan order: ok"
