#!/bin/sh
# class: judge-edited
# naive-gate: true
# Writes the wrong Sub and gives the plan a front matter gate `test`
# running `true`, which overrides the one of .planx.yaml.
set -e
printf 'package calc\n\n// Sub returns a minus b.\nfunc Sub(a, b int) int { return a + b }\n' > calc.go
sed -i 's/^topic: sub$/&\ngates:\n  - name: test\n    command: "true"/' plan.md
grep -q 'command: "true"' plan.md
