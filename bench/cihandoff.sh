#!/usr/bin/env bash
# bench/cihandoff.sh: what a task costs in transfer when a plan's waves run
# as CI jobs (planx ci github): the objects a task job pushes (its work ref
# and its result ref) and the landing job fetches, for a task that changes
# K files, in generated repositories of each size. The claim: they grow
# with the task's change, not with the repository. Also the size of the
# run's state ref (what each start and landing job pushes and each job
# fetches). Counts and bytes, not times: they do not depend on load.
#   bash bench/cihandoff.sh [--sizes 200,20000] [--change 1,10]
set -euo pipefail
sizes=200,20000
changes=1,10
while [ $# -gt 0 ]; do
	case $1 in
	--sizes) sizes=$2; shift 2 ;;
	--change) changes=$2; shift 2 ;;
	*) echo "usage: bash bench/cihandoff.sh [--sizes N,M] [--change K,L]" >&2; exit 2 ;;
	esac
done
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL="$scratch/gitconfig" LC_ALL=C NO_COLOR=1 CI=true
git config --global user.name bench
git config --global user.email bench@example.com
go build -o "$scratch/planx" "$here/../cmd/planx"
go build -o "$scratch/gen" "$here/gen"
PATH="$scratch:$PATH"

# plan K: two [P] tasks (a wave of two), T001 changing K files spread over
# the repository, T002 one file of its own.
plan() {
	printf -- '---\ntopic: handoff\n---\n# Handoff bench\n\n- [ ] T001 [P] Change %s files\n  ```sh run\n' "$1"
	printf '  for f in $(git ls-files | grep -v -e plan.md -e README.md | awk "NR %% %s == 1" | head -n %s); do echo changed >> "$f"; done\n' "$(( $2 / $1 ))" "$1"
	printf '  ```\n- [ ] T002 [P] Write own.txt\n  ```sh run\n  echo own > own.txt\n  ```\n'
}

# objects N: the count and bytes of the objects reachable from refs but
# not from base, in git dir d.
objects() {
	local d=$1 base=$2; shift 2
	git -C "$d" rev-list --objects "$@" --not "$base" | cut -d' ' -f1 |
		git -C "$d" cat-file --batch-check='%(objectsize)' | awk '{n++; b+=$1} END {printf "%d objects, %d bytes", n, b}'
}

printf '%-8s %-8s %-34s %-34s\n' files change "task job pushes (work + result)" "state ref (after start)"
for n in ${sizes//,/ }; do
	for k in ${changes//,/ }; do
		w="$scratch/$n-$k"
		mkdir -p "$w"
		"$scratch/gen" -files "$n" -dir "$w/seed" >/dev/null
		plan "$k" "$n" > "$w/seed/plan.md"
		git -C "$w/seed" init -q -b main
		git -C "$w/seed" add -A
		git -C "$w/seed" -c gc.auto=0 commit -q -m base
		git init -q --bare -b main "$w/origin.git"
		git -C "$w/seed" push -q "$w/origin.git" main
		git clone -q "$w/origin.git" "$w/start"
		(cd "$w/start" && planx ci start --run b1 plan.md >/dev/null)
		state=$(objects "$w/origin.git" main refs/planx/ci/b1/state)
		git clone -q "$w/origin.git" "$w/task"
		(cd "$w/task" && planx ci task --run b1 --task T001 >/dev/null)
		run=$(git -C "$w/origin.git" for-each-ref --format='%(refname)' 'refs/planx/runs/*/work/T001' | cut -d/ -f4)
		pushed=$(objects "$w/origin.git" "refs/planx/runs/$run/base" "refs/planx/runs/$run/work/T001" "refs/planx/runs/$run/ci/T001")
		printf '%-8s %-8s %-34s %-34s\n' "$n" "$k" "$pushed" "$state"
	done
done
