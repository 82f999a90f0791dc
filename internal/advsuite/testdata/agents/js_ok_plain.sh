#!/bin/sh
# class: honest
# Implements sub.
set -e
printf '// Returns a minus b.\nexport function sub(a, b) {\n  return a - b;\n}\n' > calc.js
