package sandbox

import (
	"slices"
	"strings"
	"testing"
)

// The Seatbelt profile is tested as text: no macOS machine runs the tests.
func TestSeatbeltArgs(t *testing.T) {
	args := SeatbeltArgs(Policy{
		Writable: []string{"/work/repo", "/tmp/planx-T001-x", "/work/repo/.git/planx/runs/r/agent"},
		ReadOnly: []string{"/work/repo/.git"},
	})
	if args[0] != "-p" {
		t.Fatalf("args %q", args)
	}
	want := `(version 1)
(allow default)
(deny file-write*)
(allow file-write-data (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty"))
(allow file-write* (require-all (subpath (param "WRITABLE_ROOT_0")) (require-not (subpath (param "READ_ONLY_0")))))
(allow file-write* (require-all (subpath (param "WRITABLE_ROOT_1")) (require-not (subpath (param "READ_ONLY_0")))))
(allow file-write* (subpath (param "WRITABLE_ROOT_2")))
(deny signal)
(allow signal (target same-sandbox))
`
	if args[1] != want {
		t.Errorf("profile:\n%s\nwant:\n%s", args[1], want)
	}
	for _, d := range []string{"-DREAD_ONLY_0=/work/repo/.git", "-DWRITABLE_ROOT_0=/work/repo",
		"-DWRITABLE_ROOT_1=/tmp/planx-T001-x", "-DWRITABLE_ROOT_2=/work/repo/.git/planx/runs/r/agent"} {
		if !slices.Contains(args, d) {
			t.Errorf("no %s in %q", d, args)
		}
	}
	// A path that looks like profile syntax stays a parameter's value.
	odd := SeatbeltArgs(Policy{Writable: []string{`/w/") (allow file-write* (subpath "/`}})
	if strings.Contains(odd[1], "/w/") {
		t.Errorf("a path reached the profile's text:\n%s", odd[1])
	}
}
