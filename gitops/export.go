package gitops

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ExportTree writes the regular files of rev in the repository at dir (a
// work tree or a bare repository, not planx's own) into dst, which it
// creates, and returns their paths relative to dst. Symbolic links and
// submodules are left out. It is how a set of files kept in another
// repository (hidden tests) is read without a checkout of it.
func ExportTree(ctx context.Context, dir, rev, dst string) ([]string, error) {
	if err := checkArg("revision", rev); err != nil {
		return nil, err
	}
	g := runner{dir: dir, env: baseEnv(), retry: defaultLockRetry()}
	g.git, _ = exec.LookPath("git")
	out, err := g.run(ctx, nil, true, "archive", "--format=tar", rev)
	if err != nil {
		return nil, fmt.Errorf("export %s of %s: %w", rev, dir, err)
	}
	var files []string
	tr := tar.NewReader(bytes.NewReader(out))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files, nil
		}
		if err != nil {
			return files, fmt.Errorf("export %s of %s: %w", rev, dir, err)
		}
		name := filepath.Clean(filepath.FromSlash(h.Name))
		if h.Typeflag != tar.TypeReg || filepath.IsAbs(name) || name == ".." || strings.HasPrefix(name, ".."+string(filepath.Separator)) {
			continue
		}
		p := filepath.Join(dst, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return files, err
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return files, err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return files, err
		}
		files = append(files, filepath.ToSlash(name))
	}
}
