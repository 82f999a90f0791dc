package wave

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/planx-dev/planx/internal/outcome"
)

func TestBisect(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		fails []bool // by commit of the chain: whether its gates fail; the last fails
		want  int
		// checked is the commits gated, in order (the tip is gated by the caller).
		checked []int
	}{
		{"one commit", []bool{true}, 0, nil},
		{"the first breaks", []bool{true, true}, 0, []int{0}},
		{"the second breaks", []bool{false, true}, 1, []int{0}},
		{"the last of five", []bool{false, false, false, false, true}, 4, []int{1, 2, 3}},
		{"the first of five", []bool{true, true, true, true, true}, 0, []int{1, 0}},
		{"the middle of five", []bool{false, false, true, true, true}, 2, []int{1, 2}},
		{"the second of eight", []bool{false, true, true, true, true, true, true, true}, 1, []int{3, 1, 0}},
		// A later task that hides a break again: the search returns a
		// commit that fails after one that passes.
		{"not monotonic", []bool{false, true, false, true}, 1, []int{1, 0}},
		{"not monotonic, later", []bool{false, true, false, false, false, true}, 5, []int{2, 3, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hi := len(tc.fails) - 1
			var checked []int
			check := func(i int) (*outcome.Failure, error) {
				checked = append(checked, i)
				if tc.fails[i] {
					return &outcome.Failure{What: fmt.Sprintf("fails at %d", i)}, nil
				}
				return nil, nil
			}
			got, fail, err := Bisect(hi, &outcome.Failure{What: fmt.Sprintf("fails at %d", hi)}, check)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("first failing = %d, want %d", got, tc.want)
			}
			if want := fmt.Sprintf("fails at %d", tc.want); fail == nil || fail.What != want {
				t.Errorf("failure = %v, want %q", fail, want)
			}
			if !slices.Equal(checked, tc.checked) {
				t.Errorf("checked %v, want %v", checked, tc.checked)
			}
		})
	}
}

func TestBisectError(t *testing.T) {
	t.Parallel()
	boom := errors.New("checkout failed")
	calls := 0
	_, _, err := Bisect(3, &outcome.Failure{What: "tip"}, func(i int) (*outcome.Failure, error) {
		calls++
		if i == 1 {
			return nil, boom
		}
		return nil, nil
	})
	if !errors.Is(err, boom) || calls != 1 {
		t.Errorf("Bisect = %v after %d checks, want %v after 1", err, calls, boom)
	}
}
