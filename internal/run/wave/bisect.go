package wave

import "github.com/planx-dev/planx/internal/outcome"

// Bisect finds the first commit of a wave's merge chain whose gates fail,
// when the gates failed (with fail) on commit hi, the chain's tip, and the
// wave's base, before commit 0, is taken as passing: each task passed its
// gates alone on it. check gates commit i of the chain and returns its
// failure, nil when it passes; an error stops the search. Bisect returns
// the first failing commit and its failure; the commits before it pass.
func Bisect(hi int, fail *outcome.Failure, check func(i int) (*outcome.Failure, error)) (int, *outcome.Failure, error) {
	lo := -1 // the base: passing
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		f, err := check(mid)
		if err != nil {
			return 0, nil, err
		}
		if f != nil {
			hi, fail = mid, f
		} else {
			lo = mid
		}
	}
	return hi, fail, nil
}
