// Package calc does arithmetic.
package calc

// Sub returns a minus b.
func Sub(a, b int) int { return 0 }
