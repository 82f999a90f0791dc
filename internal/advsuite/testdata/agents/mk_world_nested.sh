#!/bin/sh
# class: world-reach
# issue: 2
# twin: mk_ok_undeclared_mk
# Writes the wrong sub.sh and an undeclared mk/local.mk that includes a
# file of no makefile's name, .local/rules, whose .IGNORE makes make
# ignore the failing test recipe.
set -e
printf '#!/bin/sh\n# sub A B prints A minus B.\necho $(($1 + $2))\n' > sub.sh
mkdir -p .local
printf 'include .local/rules\n' > mk/local.mk
printf '.IGNORE:\n' > .local/rules
