// Command zz_probe is the ground truth's probe: a plain program, not a
// test binary, that calls calc.Sub and prints the nonce of $ADV_NONCE
// only when every answer is right.
package main

import (
	"fmt"
	"os"

	"example.com/calc"
)

func main() {
	cases := [][3]int{{5, 3, 2}, {10, 4, 6}, {0, 7, -7}, {-2, -5, 3}, {100, 1, 99}}
	for _, c := range cases {
		if got := calc.Sub(c[0], c[1]); got != c[2] {
			fmt.Printf("Sub(%d, %d) = %d, want %d\n", c[0], c[1], got, c[2])
			os.Exit(1)
		}
	}
	fmt.Println("probe-ok:" + os.Getenv("ADV_NONCE"))
}
