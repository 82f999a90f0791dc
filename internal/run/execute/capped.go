package execute

import (
	"fmt"
	"io"
	"os"
)

// ReadCapped reads a captured output file whole when it holds at most
// limit bytes (whole is true), else only its last limit bytes, said at the
// top.
func ReadCapped(path string, limit int64) (out string, whole bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", false, err
	}
	if fi.Size() <= limit {
		b, err := io.ReadAll(f)
		return string(b), err == nil, err
	}
	b := make([]byte, limit)
	if _, err := f.ReadAt(b, fi.Size()-limit); err != nil && err != io.EOF {
		return "", false, err
	}
	return fmt.Sprintf("[planx: the last %d of %d bytes; the file %s keeps more]\n%s", limit, fi.Size(), path, b), false, nil
}
