package planparse

import (
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"syscall"
	"unicode"
)

// openRegular opens the plan at path for reading, refusing anything but a
// regular file (a symbolic link to one is one). Opening a named pipe
// blocks until a writer comes, so the open does not wait (O_NONBLOCK),
// and the kind is checked on the opened file, not on the path before it,
// which could change in between; a device could be read forever.
func openRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w: %w", path, ErrUnreadable, err)
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("not a regular file (%s); give the path of a plan file", kind(fi.Mode()))
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("parse %s: %w: %w", path, ErrUnreadable, err)
	}
	return f, nil
}

// kind names what a path that is no regular file is.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	default:
		return "mode " + m.Type().String()
	}
}

// CheckPath refuses a plan path that holds a control character (a
// newline, a tab, an escape): git quotes such a name and refuses it in
// places, and the run's records, its log and its commit messages name the
// plan on one line. A run must refuse it before anything changes, not
// after its rollback commit.
func CheckPath(path string) error {
	for _, r := range path {
		if unicode.IsControl(r) {
			c := strconv.QuoteRune(r)
			return fmt.Errorf("%w: plan path %q holds a control character (%s); rename the file: git, the run's records and its commits name the plan on one line",
				ErrUnreadable, path, c[1:len(c)-1])
		}
	}
	return nil
}
