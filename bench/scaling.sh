#!/usr/bin/env bash
# bench/scaling.sh: does planx's cost grow with things it should not grow with?
#
#  1. plan size: BenchmarkParse1k vs BenchmarkParse10k (planparse/bench_test.go),
#     ns per task should stay flat;
#  2. history length: `planx run` of a 3-task plan, then `planx status`, `log`,
#     `log -n 1` and `verify`, on a fresh repository and on one with 100,000
#     unrelated commits before the run (made in seconds with git fast-import);
#  3. start-up: `planx --help`, median of 20, target under 20 ms.
#
# See bench/README.md.
set -euo pipefail

usage() {
	cat <<'EOF'
usage: bash bench/scaling.sh [options]

  --commits N   unrelated commits before the run (default 100000)
  --reps N      repetitions of each timed command, median reported (default 5)
  --help-reps N repetitions of `planx --help` (default 20)
  --no-parse    skip the parser benchmarks (go test -bench Parse1k/10k)
  --keep        keep the scratch directory
  -h, --help    this text
EOF
}

commits=100000
reps=5
help_reps=20
parse=1
keep=0
while [ $# -gt 0 ]; do
	case $1 in
	--commits) commits=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--help-reps) help_reps=$2; shift 2 ;;
	--no-parse) parse=0; shift ;;
	--keep) keep=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) echo "scaling.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
	esac
done
for n in "$commits" "$reps" "$help_reps"; do
	[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "scaling.sh: counts must be positive numbers" >&2; exit 2; }
done

root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/planx-scaling.XXXXXX")
cleanup() {
	if [ "$keep" = 1 ]; then echo "scratch kept in $tmp" >&2; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

echo "== building planx and the generator" >&2
(cd "$root" && go build -o "$tmp/planx" ./cmd/planx && go build -o "$tmp/gen" ./bench/gen)
build_rev=$(git -C "$root" log -1 --format='%h %s' | cut -c1-72)
build_dirty=$(git -C "$root" status --porcelain -- '*.go' | wc -l)

parse_out=
if [ "$parse" = 1 ]; then
	echo "== parser benchmarks (planparse BenchmarkParse1k, BenchmarkParse10k)" >&2
	parse_out=$(cd "$root" && go test -run '^$' -bench '^BenchmarkParse(1k|10k)$' -benchtime 2s -count 3 ./planparse)
fi

export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config"
export GIT_CONFIG_GLOBAL="$HOME/.gitconfig" GIT_CONFIG_NOSYSTEM=1
export LC_ALL=C TZ=UTC NO_COLOR=1 GIT_TERMINAL_PROMPT=0 CI=
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_PREFIX
mkdir -p "$HOME"
printf '[user]\n\tname = Planx Bench\n\temail = bench@planx.invalid\n[init]\n\tdefaultBranch = main\n[gc]\n\tauto = 0\n[maintenance]\n\tauto = false\n' >"$GIT_CONFIG_GLOBAL"

now_us() {
	if [ -n "${EPOCHREALTIME:-}" ]; then
		local t=$EPOCHREALTIME
		echo "${t/./}"
	else
		date +%s%6N
	fi
}

median() { sort -n | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
minmax() { sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s-%s", lo, hi }'; }

# timeit N DIR CMD...: runs CMD N times in DIR (output discarded, exit
# status 0 required) and prints each wall time in ms, one per line.
timeit() {
	local n=$1 dir=$2 here=$PWD i t0 t1 rc
	shift 2
	cd "$dir"
	for ((i = 0; i < n; i++)); do
		rc=0
		t0=$(now_us)
		"$@" >/dev/null 2>"$tmp/err" || rc=$?
		t1=$(now_us)
		if [ "$rc" != 0 ]; then
			echo "scaling.sh: $* failed in $dir (exit $rc):" >&2
			cat "$tmp/err" >&2
			exit 1
		fi
		awk -v us=$((t1 - t0)) 'BEGIN { printf "%.1f\n", us / 1000 }'
	done
	cd "$here"
}

# The plan every run executes: 3 small shell tasks.
cat >"$tmp/plan.md" <<'EOF'
---
title: Scaling check
topic: scaling
---
# Scaling check

### [ ] T001: Add a

```sh run
echo a > a.txt
```

### [ ] T002: Add b

Depends on: T001

```sh run
echo b > b.txt
```

### [ ] T003: Change a

```sh run
echo again >> a.txt
```
EOF

# setup DIR [COMMITS]: a repository, with COMMITS unrelated commits first,
# then the plan committed.
setup() {
	local dir=$1 n=${2:-0}
	mkdir -p "$dir"
	git -C "$dir" init -q -b main
	if [ "$n" -gt 0 ]; then
		"$tmp/gen" history -commits "$n" | git -C "$dir" fast-import --quiet
		git -C "$dir" reset -q --hard main
	fi
	echo "scaling" >"$dir/README"
	cp "$tmp/plan.md" "$dir/plan.md"
	git -C "$dir" add README plan.md
	git -C "$dir" commit -q -m "add the plan"
}

echo "== fresh repository" >&2
setup "$tmp/fresh"
echo "== repository with $commits unrelated commits (git fast-import)" >&2
t0=$(now_us)
setup "$tmp/deep" "$commits"
t1=$(now_us)
made_ms=$(((t1 - t0) / 1000))
deep_count=$(git -C "$tmp/deep" rev-list --count HEAD)

# `planx run` on a copy per repetition (the copy is not timed), so each run
# starts from the same state; the last copy keeps its run for the reads below.
declare -A res
for kind in fresh deep; do
	echo "== planx run, $kind" >&2
	runs=()
	for ((i = 0; i < reps; i++)); do
		rm -rf "$tmp/$kind-run"
		cp -a "$tmp/$kind" "$tmp/$kind-run"
		t=$(timeit 1 "$tmp/$kind-run" "$tmp/planx" run plan.md)
		runs+=("$t")
	done
	res[$kind,run]=$(printf '%s\n' "${runs[@]}" | median)
	res[$kind,run_mm]=$(printf '%s\n' "${runs[@]}" | minmax)
	for cmd in status log "log -n 1" verify; do
		echo "== planx $cmd, $kind" >&2
		# shellcheck disable=SC2086 # $cmd is split into its words on purpose
		times=$(timeit "$reps" "$tmp/$kind-run" "$tmp/planx" $cmd)
		res[$kind,$cmd]=$(median <<<"$times")
		res[$kind,$cmd,mm]=$(minmax <<<"$times")
	done
done
help_times=$(timeit "$help_reps" "$tmp" "$tmp/planx" --help)

echo
echo "planx scaling checks, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) CPUs, $(git --version)"
echo "planx built at $build_rev ($build_dirty Go file(s) modified in the work tree)"
echo "load: $(uptime | sed 's/.*load average: //')"
echo
if [ -n "$parse_out" ]; then
	echo "1. plan size (planparse, go test -bench, 3 counts):"
	grep '^BenchmarkParse' <<<"$parse_out" | awk '{ n = ($1 ~ /10k/) ? "10k" : "1k"; for (i = 1; i < NF; i++) if ($(i + 1) == "ns/task") t[n] = t[n] " " $i }
		END { for (n in t) { split(t[n], a, " "); printf "   Parse%-4s ns/task: %s\n", n, t[n] } }' | sort
	awk '/^BenchmarkParse/ { n = ($1 ~ /10k/) ? "10k" : "1k"; for (i = 1; i < NF; i++) if ($(i + 1) == "ns/task") { s[n] += $i; c[n]++ } }
		END { if (c["1k"] && c["10k"]) printf "   mean ns/task 10k / 1k = %.2f (1.00 is linear)\n", (s["10k"] / c["10k"]) / (s["1k"] / c["1k"]) }' <<<"$parse_out"
	echo
fi
echo "2. history length: $deep_count commits on the deep repository (made in ${made_ms} ms) vs a fresh one;"
echo "   median of $reps runs in ms [min-max]; deep/fresh ratio"
printf '   %-26s %24s %24s %6s\n' command "fresh ms" "$commits commits ms" ratio
for cmd in run status log "log -n 1" verify; do
	if [ "$cmd" = run ]; then f=${res[fresh,run]} fm=${res[fresh,run_mm]} d=${res[deep,run]} dm=${res[deep,run_mm]}; label="run (whole run, 3 tasks)"
	else f=${res[fresh,$cmd]} fm=${res[fresh,$cmd,mm]} d=${res[deep,$cmd]} dm=${res[deep,$cmd,mm]}; label=$cmd; fi
	printf '   %-26s %24s %24s %6s\n' "planx $label" "$f [$fm]" "$d [$dm]" "$(awk -v a="$d" -v b="$f" 'BEGIN { printf "%.2f", a / b }')"
done
echo
h=$(median <<<"$help_times")
echo "3. start-up: planx --help, median of $help_reps: $h ms [$(minmax <<<"$help_times")]; target < 20 ms: $(awk -v h="$h" 'BEGIN { print (h < 20) ? "met" : "NOT met" }')"
