package wave

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// PoolSize counts the slots in the pool at root and the bytes of disk that
// removing the pool frees, as du counts them: the blocks of every file,
// directory and link under root (a small file takes a block, not its few
// bytes; a file linked twice is counted once), and git's records of each
// slot's work tree (.git/worktrees/<name>, its index as large as the
// tree's listing), which the removal takes too. The sizes of the slots'
// files alone said 130 MB where 192 MB were freed.
func PoolSize(root string) (slots int, bytes int64) {
	dirs, _ := listSlots(root)
	seen := map[fileID]bool{}
	bytes = diskUsage(root, seen)
	for _, dir := range dirs {
		if admin := adminDir(dir); admin != "" {
			bytes += diskUsage(admin, seen)
		}
	}
	return len(dirs), bytes
}

// diskUsage is the disk the tree at root takes, each file once.
func diskUsage(root string, seen map[fileID]bool) int64 {
	var n int64
	_ = filepath.WalkDir(root, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		id, used := onDisk(fi)
		if id != (fileID{}) {
			if seen[id] {
				return nil
			}
			seen[id] = true
		}
		n += used
		return nil
	})
	return n
}

// adminDir is the directory where git keeps its records of the linked
// work tree dir (the gitdir its .git file names), or "" if there is none.
func adminDir(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, ".git"))
	if err != nil {
		return ""
	}
	admin, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
	if !ok {
		return ""
	}
	if !filepath.IsAbs(admin) {
		admin = filepath.Join(dir, admin)
	}
	if fi, err := os.Stat(admin); err != nil || !fi.IsDir() {
		return ""
	}
	return admin
}
