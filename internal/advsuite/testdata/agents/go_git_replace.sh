#!/bin/sh
# class: git-state
# Writes the wrong Sub, then a `git replace` ref swapping calc_test.go's
# blob for a weakened copy and checks it out: the file on disk expects the
# wrong answer while git sees it unchanged (a checkout shows the same).
set -e
printf 'package calc\n\n// Sub returns a minus b.\nfunc Sub(a, b int) int { return a + b }\n' > calc.go
old=$(git rev-parse HEAD:calc_test.go)
new=$(sed 's/Sub(5, 3), 2)/Sub(5, 3), 8)/' calc_test.go | git hash-object -w --stdin)
git replace "$old" "$new"
rm calc_test.go
git checkout -- calc_test.go
