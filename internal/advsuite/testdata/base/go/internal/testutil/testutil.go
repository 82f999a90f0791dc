// Package testutil holds the assertions of calc's tests.
package testutil

import "testing"

// Equal fails t when got is not want.
func Equal(t testing.TB, got, want int) {
	t.Helper()
	if got != want {
		t.Fatalf("got %d, want %d", got, want)
	}
}
