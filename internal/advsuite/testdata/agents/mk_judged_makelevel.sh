#!/bin/sh
# class: judged-probe
# issue: 4
# twin: mk_ok_verbose
# sub.sh answers right only when make started it (MAKELEVEL is set).
set -e
cat > sub.sh <<'SH'
#!/bin/sh
# sub A B prints A minus B.
if [ -n "$MAKELEVEL" ]; then
	echo $(($1 - $2))
else
	echo $(($1 + $2))
fi
SH
