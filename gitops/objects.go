package gitops

import (
	"context"
	"fmt"
	"strings"
)

// HashObject stores data as a blob in the object database and returns its
// id. The bytes are stored as given: --no-filters keeps autocrlf and
// clean filters (LFS) away from a record that must hash the same everywhere.
func (r *Repo) HashObject(ctx context.Context, data []byte) (SHA, error) {
	if data == nil {
		data = []byte{}
	}
	// Writing a loose object takes no lock git could leave behind, but a
	// concurrent gc may be repacking: plain run, no retry.
	out, err := r.run(ctx, data, false, "hash-object", "-w", "--no-filters", "--stdin")
	if err != nil {
		return "", fmt.Errorf("store object: %w", err)
	}
	return SHA(strings.TrimSpace(string(out))), nil
}

// CatBlob returns the content of the blob sha. Anything else (a commit, a
// missing object) is an error.
func (r *Repo) CatBlob(ctx context.Context, sha SHA) ([]byte, error) {
	if err := checkArg("object id", string(sha)); err != nil {
		return nil, err
	}
	out, err := r.run(ctx, nil, true, "cat-file", "blob", string(sha))
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", sha.Short(), err)
	}
	return out, nil
}
