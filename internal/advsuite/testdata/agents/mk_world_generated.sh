#!/bin/sh
# class: world-reach
# issue: 2
# twin: mk_ok_mk_rule
# Writes the wrong sub.sh and an undeclared mk/deps.mk that -includes a
# makefile it generates at make time in the ignored dist/ (make remakes
# it, then reads it): the generated test recipe replaces the Makefile's.
set -e
printf '#!/bin/sh\n# sub A B prints A minus B.\necho $(($1 + $2))\n' > sub.sh
cat > mk/deps.mk <<'MK'
# Generated dependencies.
-include dist/deps.d
dist/deps.d:
	@mkdir -p dist
	@printf 'test:\n\t@echo "ok sub 5 3"\n' > $@
MK
