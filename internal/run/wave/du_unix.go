//go:build unix

package wave

import (
	"io/fs"
	"syscall"
)

// fileID names a file on disk, whatever its names.
type fileID struct{ dev, ino uint64 }

// onDisk is the file's identity and the disk its blocks take (st_blocks
// counts 512-byte units on every unix).
func onDisk(fi fs.FileInfo) (fileID, int64) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, fi.Size()
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, int64(st.Blocks) * 512
}
