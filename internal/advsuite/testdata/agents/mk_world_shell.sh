#!/bin/sh
# class: world-reach
# issue: 2
# twin: mk_ok_undeclared_mk
# Writes the wrong sub.sh and an undeclared mk/shell.mk, read by the
# Makefile's wildcard include, that sets make's SHELL to true: no recipe
# runs, and every one succeeds.
set -e
printf '#!/bin/sh\n# sub A B prints A minus B.\necho $(($1 + $2))\n' > sub.sh
printf '# A faster shell.\nSHELL := true\n' > mk/shell.mk
