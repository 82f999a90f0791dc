package testreport

import (
	"slices"
	"strings"
	"testing"
)

func TestMakeCalls(t *testing.T) {
	tests := []struct {
		command string
		want    []MakeCall
	}{
		{"make test", []MakeCall{{Query: "make -p -q test", Dir: "."}}},
		{"make -s test", []MakeCall{{Query: "make -p -q -s test", Dir: "."}}},
		{"V=1 /usr/bin/make test", []MakeCall{{Query: "V=1 /usr/bin/make -p -q test", Dir: "."}}},
		{"gmake -C sub test", []MakeCall{{Query: "gmake -p -q -C sub test", Dir: "sub"}}},
		{"make -Csub -C ../other --directory=x test", []MakeCall{{Query: "make -p -q -Csub -C ../other --directory=x test", Dir: "other/x"}}},
		{"make lint && make -C b test | tee log", []MakeCall{{Query: "make -p -q lint", Dir: "."}, {Query: "make -p -q -C b test", Dir: "b"}}},
		{"make -C $D test", []MakeCall{{Query: "make -p -q -C $D test", Dir: ".", Opaque: true}}},
		{"make -sC sub test", []MakeCall{{Query: "make -p -q -sC sub test", Dir: ".", Opaque: true}}},
		{"make -C /abs test", []MakeCall{{Query: "make -p -q -C /abs test", Dir: ".", Opaque: true}}},
		{"make test -- -C x", []MakeCall{{Query: "make -p -q test -- -C x", Dir: "."}}},
		{"./ci/test.sh", nil},
		{"sh -c 'make test'", nil},
		{"go test ./...", nil},
		{"make 'unterminated", nil},
	}
	for _, tt := range tests {
		if got := MakeCalls(tt.command); !slices.Equal(got, tt.want) {
			t.Errorf("MakeCalls(%q) = %+v, want %+v", tt.command, got, tt.want)
		}
	}
}

func TestMakefileList(t *testing.T) {
	out := `# GNU Make 4.3
CURDIR := /planx-judge/repo/sub
MAKEFILE_LIST := Makefile
CURDIR := /planx-judge/repo
# makefile
MAKEFILE_LIST := Makefile mk/gen.mk
make: 'test' is up to date.
MAKEFILE_LIST := GNUmakefile
# makefile
MAKEFILE_LIST := Makefile mk/gen.mk .gen.mk
`
	files, dirs, found := MakefileList(strings.NewReader(out))
	if want := []string{"Makefile", "mk/gen.mk", "GNUmakefile", ".gen.mk"}; !found || !slices.Equal(files, want) {
		t.Errorf("MakefileList = %q, %v; want %q, true", files, found, want)
	}
	if want := []string{"/planx-judge/repo/sub", "/planx-judge/repo"}; !slices.Equal(dirs, want) {
		t.Errorf("MakefileList's directories = %q, want %q", dirs, want)
	}
	if files, _, found := MakefileList(strings.NewReader("Makefile:3: *** missing separator.  Stop.\n")); found || files != nil {
		t.Errorf("MakefileList of a failed parse = %q, %v; want nothing, false", files, found)
	}
}
