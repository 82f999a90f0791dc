package gitops

import (
	"encoding/binary"
	"errors"
	"os"
	"slices"
)

// Reading the index's flag bits in-process spares a run's preflight one
// `git ls-files -v` (a child process that reads and prints the whole
// index). go-git's index decoder drops the assume-unchanged bit, so the
// few fields needed are read here; whatever this reader does not know (a
// split or sparse index, an unknown version, a layout that does not add up)
// sends the question to git.

var errIndexLayout = errors.New("index layout not understood")

// index flag bits (Documentation/gitformat-index.txt).
const (
	flagAssumeValid = 0x8000
	flagExtended    = 0x4000
	flagNameLen     = 0x0fff
	extSkipWorktree = 0x4000
	indexEntryFixed = 40 // ctime, mtime, dev, ino, mode, uid, gid, size
)

// hiddenInIndex lists the skip-worktree and assume-unchanged entries of the
// index file at path, as HiddenEntries does. A missing index hides nothing.
func hiddenInIndex(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	// The hash size is not in the index: the one (SHA-1 or SHA-256) under
	// which the file parses to its end exactly is the one it uses.
	for _, hashLen := range []int{20, 32} {
		if hidden, err := parseIndexFlags(data, hashLen); err == nil {
			slices.Sort(hidden)
			return hidden, nil
		}
	}
	return nil, errIndexLayout
}

// parseIndexFlags walks the entries of an index of version 2, 3 or 4
// whose object ids are hashLen bytes long, then checks that extensions
// and the trailing checksum end the file.
func parseIndexFlags(data []byte, hashLen int) ([]string, error) {
	if len(data) < 12+hashLen || string(data[:4]) != "DIRC" {
		return nil, errIndexLayout
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return nil, errIndexLayout
	}
	n := int(binary.BigEndian.Uint32(data[8:12]))
	var hidden []string
	var prev []byte
	at := 12
	for range n {
		start := at
		at += indexEntryFixed + hashLen + 2
		if at > len(data) {
			return nil, errIndexLayout
		}
		flags := binary.BigEndian.Uint16(data[at-2 : at])
		var ext uint16
		if flags&flagExtended != 0 {
			if version < 3 || at+2 > len(data) {
				return nil, errIndexLayout
			}
			ext = binary.BigEndian.Uint16(data[at : at+2])
			at += 2
		}
		name, next, err := entryName(data, at, start, version, prev)
		if err != nil {
			return nil, err
		}
		at, prev = next, name
		switch {
		case ext&extSkipWorktree != 0:
			if name[len(name)-1] == '/' {
				return nil, errIndexLayout // a sparse index's directory entry
			}
			hidden = append(hidden, string(name)+" (skip-worktree)")
		case flags&flagAssumeValid != 0:
			hidden = append(hidden, string(name)+" (assume-unchanged)")
		}
	}
	return hidden, checkExtensions(data, at, hashLen)
}

// entryName reads the path of the entry that started at start, whose name
// begins at at; it returns the name and where the next entry begins.
func entryName(data []byte, at, start int, version uint32, prev []byte) ([]byte, int, error) {
	if version == 4 {
		// A varint of bytes to strip from the previous name, then the
		// rest of the name, NUL-terminated; no padding.
		strip, w := indexVarint(data[at:])
		if w == 0 || strip > len(prev) {
			return nil, 0, errIndexLayout
		}
		at += w
		end := slices.Index(data[at:], 0)
		if end < 0 {
			return nil, 0, errIndexLayout
		}
		name := append(slices.Clone(prev[:len(prev)-strip]), data[at:at+end]...)
		if len(name) == 0 {
			return nil, 0, errIndexLayout
		}
		return name, at + end + 1, nil
	}
	end := slices.Index(data[at:], 0)
	if end <= 0 {
		return nil, 0, errIndexLayout
	}
	name := data[at : at+end]
	// 1 to 8 NULs pad the entry to a multiple of 8 bytes.
	next := start + (at-start+end+8)&^7
	if next > len(data) {
		return nil, 0, errIndexLayout
	}
	return name, next, nil
}

// indexVarint decodes git's offset varint (varint.c); w is 0 when invalid.
func indexVarint(b []byte) (v, w int) {
	if len(b) == 0 {
		return 0, 0
	}
	v = int(b[0] & 0x7f)
	w = 1
	for b[w-1]&0x80 != 0 {
		if w >= len(b) || w > 8 {
			return 0, 0
		}
		v = ((v + 1) << 7) | int(b[w]&0x7f)
		w++
	}
	return v, w
}

// checkExtensions walks the extensions from at and requires the checksum
// to end the file. A split index (link) or sparse index (sdir) holds
// entries this reader did not see: git must answer.
func checkExtensions(data []byte, at, hashLen int) error {
	for at < len(data)-hashLen {
		if at+8 > len(data)-hashLen {
			return errIndexLayout
		}
		sig := string(data[at : at+4])
		size := int(binary.BigEndian.Uint32(data[at+4 : at+8]))
		if sig == "link" || sig == "sdir" {
			return errIndexLayout
		}
		at += 8 + size
	}
	if at != len(data)-hashLen {
		return errIndexLayout
	}
	return nil
}
