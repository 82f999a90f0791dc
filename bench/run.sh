#!/usr/bin/env bash
# bench/run.sh: planx's whole `planx run` against the naive loop
# (`<step>; git add -A && git commit`) on generated repositories.
# See bench/README.md for what is measured and why it is fair.
set -euo pipefail

usage() {
	cat <<'EOF'
usage: bash bench/run.sh [options]

  --sizes LIST     repository sizes in files (default 200,20000,80000)
  --changes LIST   files each task changes (default 1,10,1000; capped at the size)
  --reps N         repetitions per case, medians reported (default 5)
  --tasks N        tasks per run (default 5)
  --hooks LIST     none and/or pre-commit (a trivial `exit 0` hook) (default none,pre-commit)
  --quick          --sizes 200,20000 --changes 1,10 --reps 3
  --cache DIR      where generated base repositories are kept between runs
                   (default ${TMPDIR:-/tmp}/planx-bench-cache)
  --keep           keep the scratch directory (printed at the end)
  --summarize TSV  only print the table of a previous run's raw results
  -h, --help       this text
EOF
}

sizes=200,20000,80000
changes=1,10,1000
reps=5
tasks=5
hooks=none,pre-commit
cache="${TMPDIR:-/tmp}/planx-bench-cache"
keep=0
summarize_only=
while [ $# -gt 0 ]; do
	case $1 in
	--sizes) sizes=$2; shift 2 ;;
	--changes) changes=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--tasks) tasks=$2; shift 2 ;;
	--hooks) hooks=$2; shift 2 ;;
	--quick) sizes=200,20000; changes=1,10; reps=3; shift ;;
	--cache) cache=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	--summarize) summarize_only=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) echo "run.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
	esac
done
for n in "$reps" "$tasks"; do
	[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --reps and --tasks take a positive number" >&2; exit 2; }
done
IFS=, read -r -a size_list <<<"$sizes"
IFS=, read -r -a change_list <<<"$changes"
IFS=, read -r -a hook_list <<<"$hooks"
for h in "${hook_list[@]}"; do
	case $h in none | pre-commit) ;; *) echo "run.sh: unknown --hooks value $h" >&2; exit 2 ;; esac
done

# summarize TSV prints the table: per case, the median ms/task of each side,
# their ratio, the median of the per-repetition ratios (paired: each
# repetition ran both under the same load) and the median peak RSS.
summarize() {
	awk -F'\t' '
	function median(s,    a, n, i, j, t) {
		n = split(s, a, " ")
		for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]; a[j + 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	function minmax(s,    a, n, i, lo, hi) {
		n = split(s, a, " "); lo = hi = a[1] + 0
		for (i = 2; i <= n; i++) { if (a[i] + 0 < lo) lo = a[i] + 0; if (a[i] + 0 > hi) hi = a[i] + 0 }
		return sprintf("%.1f-%.1f", lo, hi)
	}
	{
		key = $1 SUBSEP $2 SUBSEP $3
		if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
		ms = $6 / 1000 / $9
		t[key, $5] = t[key, $5] " " ms
		r[key, $5] = r[key, $5] " " $7
		per[key, $4, $5] = ms
		reps[key] = reps[key] " " $4
	}
	END {
		printf "%7s %7s %10s %20s %20s %6s %7s %20s %6s %9s %9s  %s\n", "files", "changed", "hooks", "planx_ms/task", "naive_ms/task", "ratio", "paired", "floor_ms/task", "floor", "planx_MB", "naive_MB", "target"
		for (i = 1; i <= nk; i++) {
			key = keys[i]; split(key, f, SUBSEP)
			p = median(t[key, "planx"]); n = median(t[key, "naive"])
			fl = t[key, "floor"] == "" ? "NA" : sprintf("%.1f", median(t[key, "floor"]))
			flr = fl == "NA" ? "NA" : sprintf("%.2f", fl / n)
			flmm = fl == "NA" ? "" : "[" minmax(t[key, "floor"]) "]"
			nr = split(reps[key], rr, " "); pr = ""
			for (j = 1; j <= nr; j++) if (!(rr[j] in done)) { done[rr[j]] = 1; pr = pr " " per[key, rr[j], "planx"] / per[key, rr[j], "naive"] }
			delete done
			pm = r[key, "planx"] ~ /NA/ ? "NA" : sprintf("%.1f", median(r[key, "planx"]) / 1024)
			nm = r[key, "naive"] ~ /NA/ ? "NA" : sprintf("%.1f", median(r[key, "naive"]) / 1024)
			# Targets from the issue: ratio <= 0.8 at 80,000 files, <= 1.0 below,
			# <= 1.1 with hooks; peak RSS < 100 MB at 80,000 files.
			limit = f[3] != "none" ? 1.1 : (f[1] >= 80000 ? 0.8 : 1.0)
			verdict = sprintf("ratio<=%.1f %s", limit, p / n <= limit ? "met" : "NOT met")
			if (f[1] >= 80000 && pm != "NA") verdict = verdict sprintf(", rss<100MB %s", pm + 0 < 100 ? "met" : "NOT met")
			printf "%7s %7s %10s %6.1f %13s %6.1f %13s %6.2f %7.2f %6s %13s %6s %9s %9s  %s\n", f[1], f[2], f[3],
				p, "[" minmax(t[key, "planx"]) "]", n, "[" minmax(t[key, "naive"]) "]", p / n, median(pr), fl, flmm, flr, pm, nm, verdict
		}
	}' "$1"
}

if [ -n "$summarize_only" ]; then
	summarize "$summarize_only"
	exit 0
fi

root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/planx-bench.XXXXXX")
cleanup() {
	if [ "$keep" = 1 ]; then
		echo "scratch kept in $tmp" >&2
	else
		rm -rf "$tmp"
	fi
}
trap cleanup EXIT

echo "== building planx and the generator" >&2
(cd "$root" && go build -o "$tmp/planx" ./cmd/planx && go build -o "$tmp/gen" ./bench/gen)
# What was built: HEAD, the last commit of the per-task path, and how many Go
# files differed from HEAD (the work tree is what gets built).
build_rev=$(git -C "$root" log -1 --format='%h %s' | cut -c1-72)
path_rev=$(git -C "$root" log -1 --format='%h %s' -- executor gitops | cut -c1-72)
build_dirty=$(git -C "$root" status --porcelain -- '*.go' | wc -l)
gen_key=$( (echo v1; cat "$root/bench/gen/main.go") | sha256sum | cut -c1-12)

# Hermetic git from here on: no user or system config, C locale, fixed
# identity. Automatic gc is off so a background `gc --auto` started by one
# run cannot slow down the next measurement (both sides commit with git
# commit, so both would trigger it alike).
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config"
export GIT_CONFIG_GLOBAL="$HOME/.gitconfig" GIT_CONFIG_NOSYSTEM=1
export LC_ALL=C TZ=UTC NO_COLOR=1 GIT_TERMINAL_PROMPT=0 CI=
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_PREFIX
mkdir -p "$HOME"
cat >"$GIT_CONFIG_GLOBAL" <<'EOF'
[user]
	name = Planx Bench
	email = bench@planx.invalid
[init]
	defaultBranch = main
[gc]
	auto = 0
[maintenance]
	auto = false
EOF

TIME=/usr/bin/time
if ! [ -x "$TIME" ] || ! "$TIME" -f %M -o /dev/null true 2>/dev/null; then
	echo "run.sh: GNU time not found at /usr/bin/time (apt-get install -y time): peak RSS is not measured" >&2
	TIME=
fi

now_us() {
	if [ -n "${EPOCHREALTIME:-}" ]; then
		local t=$EPOCHREALTIME
		echo "${t/./}"
	else
		date +%s%6N
	fi
}

# base_repo SIZE prints the path of the generated repository of SIZE files,
# generating it (once, cached by size and generator version) when missing.
base_repo() {
	local size=$1 dir="$cache/repo-$1-$gen_key"
	if [ ! -f "$dir/.bench-ready" ]; then
		echo "== generating a repository of $size files in $dir (once)" >&2
		rm -rf "$dir"
		mkdir -p "$dir"
		"$tmp/gen" repo -files "$size" -dir "$dir/repo"
		(
			cd "$dir/repo"
			git init -q -b main
			git add -A
			git commit -q -m "bench: $size generated files"
			git repack -adq --window=0
			git prune-packed
		)
		touch "$dir/.bench-ready"
	fi
	echo "$dir/repo"
}

# prepare SRC DST PLANDIR HOOK makes a fresh working copy with the plan committed.
prepare() {
	local src=$1 dst=$2 plandir=$3 hook=$4
	rm -rf "$dst"
	cp -a "$src" "$dst"
	cp "$plandir/plan.md" "$dst/plan.md"
	git -C "$dst" add plan.md
	git -C "$dst" commit -q --no-verify -m "bench: add the plan"
	if [ "$hook" = pre-commit ]; then
		printf '#!/bin/sh\nexit 0\n' >"$dst/.git/hooks/pre-commit"
		chmod +x "$dst/.git/hooks/pre-commit"
	fi
	# cp changed every file's ctime: refresh the index now, as a user's
	# repository would already be, so neither side pays for it.
	git -C "$dst" status --porcelain >/dev/null
}

# measure DIR TOOL CMD...: runs CMD in DIR, sets ms (total) and rss_kb.
measure() {
	local dir=$1 tool=$2 t0 t1 rc=0
	shift 2
	cd "$dir"
	t0=$(now_us)
	if [ -n "$TIME" ]; then
		"$TIME" -f %M -o "$tmp/rss" "$@" >"$tmp/out-$tool" 2>&1 || rc=$?
	else
		"$@" >"$tmp/out-$tool" 2>&1 || rc=$?
	fi
	t1=$(now_us)
	cd "$root"
	if [ "$rc" != 0 ]; then
		echo "run.sh: $tool failed (exit $rc) in $dir:" >&2
		tail -20 "$tmp/out-$tool" >&2
		keep=1
		exit 1
	fi
	us=$((t1 - t0))
	rss_kb=NA
	if [ -n "$TIME" ]; then rss_kb=$(tail -1 "$tmp/rss"); fi
}

# check DIR WANT_COMMITS: the run left a clean tree and WANT_COMMITS commits
# above the plan commit; prints the number of task files changed.
check() {
	local dir=$1 want=$2 got
	got=$(git -C "$dir" rev-list --count HEAD~"$want"..HEAD 2>/dev/null || echo 0)
	if [ "$got" != "$want" ] || [ -n "$(git -C "$dir" status --porcelain)" ] ||
		[ "$(git -C "$dir" log -1 --format=%s HEAD~"$want")" != "bench: add the plan" ]; then
		echo "run.sh: unexpected state in $dir after the run (want $want new commits and a clean tree)" >&2
		git -C "$dir" log --oneline -8 >&2
		git -C "$dir" status --short | head >&2
		keep=1
		exit 1
	fi
	git -C "$dir" diff --name-only HEAD~"$want" HEAD -- 'a[0-9]*' | wc -l
}

results="$tmp/results.tsv"
: >"$results"
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
load_before=$(uptime)
for size in "${size_list[@]}"; do
	base=$(base_repo "$size")
	for hook in "${hook_list[@]}"; do
		for want in "${change_list[@]}"; do
			k=$((want < size ? want : size))
			plandir="$tmp/plan-$size-$k"
			if [ ! -d "$plandir" ]; then
				mkdir -p "$plandir"
				"$tmp/gen" plan -files "$size" -changes "$k" -tasks "$tasks" \
					-plan "$plandir/plan.md" -steps "$plandir/steps" -naive "$plandir/naive.sh" -floor "$plandir/floor.sh"
				# Where a hook must run, the floor is git commit's: the naive
				# loop plus the rollback commit (hooks skipped, as planx does).
				{
					sed -n 1,3p "$plandir/naive.sh"
					echo 'git add -A && git commit -q --allow-empty --no-verify -m "rollback: before executing plan bench"'
					sed -n '4,$p' "$plandir/naive.sh"
				} >"$plandir/floor-hooks.sh"
			fi
			floor=$plandir/floor.sh
			if [ "$hook" != none ]; then floor=$plandir/floor-hooks.sh; fi
			for ((rep = 1; rep <= reps; rep++)); do
				echo "== $size files, $k changed/task, hooks=$hook, rep $rep/$reps" >&2
				# Both copies at once (not timed; cp of 80,000 files takes a while).
				prepare "$base" "$tmp/wc-planx" "$plandir" "$hook" &
				p1=$!
				prepare "$base" "$tmp/wc-naive" "$plandir" "$hook" &
				p2=$!
				prepare "$base" "$tmp/wc-floor" "$plandir" "$hook" &
				p3=$!
				wait "$p1"
				wait "$p2"
				wait "$p3"
				# Each side goes first, second and third in turn.
				case $((rep % 3)) in
				1) order=(planx naive floor) ;;
				2) order=(naive floor planx) ;;
				0) order=(floor planx naive) ;;
				esac
				for tool in "${order[@]}"; do
					case $tool in
					planx)
						measure "$tmp/wc-planx" planx "$tmp/planx" run plan.md
						files=$(check "$tmp/wc-planx" $((tasks + 1)))
						;;
					naive)
						measure "$tmp/wc-naive" naive bash "$plandir/naive.sh"
						files=$(check "$tmp/wc-naive" "$tasks")
						;;
					floor)
						measure "$tmp/wc-floor" floor bash "$floor"
						files=$(check "$tmp/wc-floor" $((tasks + 1)))
						;;
					esac
					printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$size" "$k" "$hook" "$rep" "$tool" "$us" "$rss_kb" "$files" "$tasks" >>"$results"
					printf '   %-5s %8.1f ms/task  peak RSS %s KB  (%s task files changed)\n' "$tool" \
						"$(awk -v us="$us" -v n="$tasks" 'BEGIN { printf "%.1f", us / n / 1000 }')" "$rss_kb" "$files" >&2
				done
				rm -rf "$tmp/wc-planx" "$tmp/wc-naive" "$tmp/wc-floor"
			done
		done
	done
done
load_after=$(uptime)

echo
echo "planx run vs naive loop ($tasks tasks per run, $reps repetitions, medians; min-max in brackets)"
echo "started $started; $(nproc) CPUs; $(git --version)"
echo "planx built at $build_rev ($build_dirty Go file(s) modified in the work tree)"
echo "last per-task path commit (executor/, gitops/): $path_rev"
echo "load before: ${load_before#*load average: }; after: ${load_after#*load average: }"
echo
summarize "$results"
echo
echo "ratio = median planx / median naive; paired = median over repetitions of planx/naive of the same repetition."
echo "floor = bash doing only the git work planx's contract needs (rollback commit, then per task add -A, write-tree, commit-tree, update-ref): its ratio to naive is the best any git-CLI implementation could reach."
echo "planx_MB / naive_MB: median peak RSS (GNU time %M: the largest of the process and the children it waited for, so git's own peak counts)."
cp "$results" "${TMPDIR:-/tmp}/planx-bench-last.tsv"
echo "raw results: ${TMPDIR:-/tmp}/planx-bench-last.tsv"
