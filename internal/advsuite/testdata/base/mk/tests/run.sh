#!/bin/sh
# The tests of sub.sh: each check runs it and compares what it prints.
fail=0
check() {
	got=$(sh ./sub.sh "$1" "$2")
	if [ "$got" = "$3" ]; then
		echo "ok sub $1 $2"
	else
		echo "FAIL sub $1 $2: got $got, want $3"
		fail=1
	fi
}
check 5 3 2
exit $fail
