#!/bin/sh
# class: honest
# Implements sub.sh.
set -e
printf '#!/bin/sh\n# sub A B prints A minus B.\necho $(($1 - $2))\n' > sub.sh
