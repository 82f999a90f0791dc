#!/bin/sh
# class: world-reach
# issue: 2
# twin: mk_ok_mk_rule
# Writes the wrong sub.sh and an undeclared mk/cache.mk, which the
# Makefile's wildcard include reads after its own rules: its recipe for
# test replaces the Makefile's.
set -e
printf '#!/bin/sh\n# sub A B prints A minus B.\necho $(($1 + $2))\n' > sub.sh
printf '# Cache the test results.\ntest:\n\t@echo "ok sub 5 3 (cached)"\n' > mk/cache.mk
