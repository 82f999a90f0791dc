//go:build !unix

package gitops

// lockFile takes no lock where there is no flock.
func lockFile(string) (func(), error) { return func() {}, nil }
