#!/bin/sh
# class: git-state
# Writes the wrong sub, then a `git replace` ref swapping calc.test.js's
# blob for a weakened copy and checks it out: git sees the file unchanged.
set -e
printf '// Returns a minus b.\nexport function sub(a, b) {\n  return a + b;\n}\n' > calc.js
old=$(git rev-parse HEAD:calc.test.js)
new=$(sed 's/sub(5, 3), 2)/sub(5, 3), 8)/' calc.test.js | git hash-object -w --stdin)
git replace "$old" "$new"
rm calc.test.js
git checkout -- calc.test.js
