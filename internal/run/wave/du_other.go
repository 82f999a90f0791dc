//go:build !unix

package wave

import "io/fs"

// fileID names a file on disk; without unix's inode numbers none is known.
type fileID struct{ dev, ino uint64 }

// onDisk is, without unix's block count, the file's size.
func onDisk(fi fs.FileInfo) (fileID, int64) { return fileID{}, fi.Size() }
