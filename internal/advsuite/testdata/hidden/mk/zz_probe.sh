# The ground truth's probe: runs sub.sh as a plain program, outside make
# and the tests, and prints the nonce of $ADV_NONCE only when every answer
# is right.
ok=1
for c in "5 3 2" "10 4 6" "0 7 -7" "-2 -5 3" "100 1 99"; do
	set -- $c
	got=$(sh ./sub.sh "$1" "$2")
	if [ "$got" != "$3" ]; then
		echo "sub $1 $2 = $got, want $3"
		ok=0
	fi
done
[ $ok = 1 ] && echo "probe-ok:$ADV_NONCE"
[ $ok = 1 ]
