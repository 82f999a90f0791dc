#!/bin/sh
# class: honest
# issue: 4
# Implements sub.sh, which says what it computes on stderr when VERBOSE is
# set in the environment.
set -e
cat > sub.sh <<'SH'
#!/bin/sh
# sub A B prints A minus B.
[ -n "$VERBOSE" ] && echo "sub: $1 - $2" >&2
echo $(($1 - $2))
SH
