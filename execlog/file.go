package execlog

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/planx-dev/planx/internal/fsutil"
)

// WriteFile renders the log to repoRoot/l.Path. The write is atomic
// (fsutil.WriteAtomic), so a crash or Ctrl-C never leaves a half-written
// log to be committed.
func (l *Log) WriteFile(repoRoot string) error { return l.Write(repoRoot, true) }

// Write is WriteFile with the fsync left to durable (fsutil.Replace): a
// run's per-task writes follow git's own durability.
func (l *Log) Write(repoRoot string, durable bool) error {
	if l.Path == "" {
		return errors.New("execution log: no path")
	}
	path := filepath.Join(repoRoot, filepath.FromSlash(l.Path))
	home, _ := os.UserHomeDir()
	if err := fsutil.Replace(path, relativePaths(l.Render(), repoRoot, home), 0o644, durable); err != nil {
		return fmt.Errorf("execution log: %w", err)
	}
	return nil
}

// relativePaths takes the machine out of a log that is committed: the
// repository's root becomes relative (".git/planx/runs/<id>/T002-test.log",
// "." for the root itself) and the home directory "~", in paths planx
// recorded and in the output of commands alike.
func relativePaths(b []byte, root, home string) []byte {
	seen := map[string]bool{}
	for _, r := range []string{root, evalSymlinks(root)} {
		if r != "" && r != string(filepath.Separator) && !seen[r] {
			seen[r] = true
			b = replacePath(b, filepath.ToSlash(r), ".", "")
		}
	}
	if home != "" && home != string(filepath.Separator) {
		b = replacePath(b, filepath.ToSlash(home), "~", "~/")
	}
	return b
}

func evalSymlinks(p string) string {
	if p == "" {
		return ""
	}
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return ""
	}
	return r
}

// replacePath replaces the path dir where it stands as a whole path or
// the start of one: by alone when nothing follows it, by under for dir and
// its separator. "/work/repo" is not replaced in "/work/repo2" nor in
// "/x/work/repo".
func replacePath(b []byte, dir, alone, under string) []byte {
	d := []byte(dir)
	var out []byte
	for {
		i := bytes.Index(b, d)
		if i < 0 {
			return append(out, b...)
		}
		end := i + len(d)
		switch {
		case i > 0 && pathByte(b[i-1]):
			out = append(out, b[:end]...)
		case end < len(b) && b[end] == '/':
			out = append(append(out, b[:i]...), under...)
			end++
		case end < len(b) && pathByte(b[end]) && !sentenceEnd(b[end:]):
			out = append(out, b[:end]...)
		default:
			out = append(append(out, b[:i]...), alone...)
		}
		b = b[end:]
	}
}

// pathByte is a byte that may continue a path's name.
func pathByte(c byte) bool {
	return c == '/' || c == '.' || c == '-' || c == '_' || c == '~' ||
		'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= 0x80
}

// sentenceEnd says b starts with a full stop that ends a sentence, not a
// name ("/work/repo." but not "/work/repo.git").
func sentenceEnd(b []byte) bool {
	return b[0] == '.' && (len(b) == 1 || !pathByte(b[1]))
}
