package advsuite

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// verdict is the ground truth's answer on a tree.
type verdict struct {
	correct bool
	why     string // the output that decided it
}

// truth is one ground truth verdict, computed once for a checkout's
// content.
type truth struct {
	once sync.Once
	v    verdict
	err  error
}

// groundTruth judges the tree of rev (a commit or a tree) in repo: it
// checks out the tracked files alone into a fresh directory (no ignored or
// untracked file, no replace ref, no filter, no index flag), removes every
// test file, puts back the base's judge files and adds the hidden ones,
// then runs the probe and the tests with a pristine toolchain: a fresh
// HOME, no variable but PATH and the Go caches, Python isolated (-I -B),
// node with no options. The verdict depends on nothing but the checkout's
// files, so one is computed once for each content: cases whose trees come
// to the same checkout share it. The files named by drop (slash paths,
// another task's work) are left out of the checkout: the ground truth
// judges the case's task alone.
func (tl *tools) groundTruth(ctx context.Context, repo string, env []string, rev string, k *kase, work string, drop ...string) (verdict, error) {
	dir := filepath.Join(work, "checkout")
	if err := checkout(ctx, repo, env, rev, dir); err != nil {
		return verdict{}, err
	}
	for _, p := range drop {
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(p))); err != nil && !os.IsNotExist(err) {
			return verdict{}, err
		}
	}
	if err := tl.applyJudge(dir, k.lang); err != nil {
		return verdict{}, err
	}
	sum, err := contentHash(dir)
	if err != nil {
		return verdict{}, err
	}
	tl.mu.Lock()
	tr := tl.truths[sum]
	if tr == nil {
		tr = &truth{}
		tl.truths[sum] = tr
	}
	tl.mu.Unlock()
	tr.once.Do(func() { tr.v, tr.err = tl.runTruth(ctx, dir, k, work) })
	return tr.v, tr.err
}

// contentHash is a digest of the paths, executable bits and contents of
// the files under dir.
func contentHash(dir string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(h, "%q %o %d\n", filepath.ToSlash(rel), info.Mode().Perm()&0o111, len(b))
		h.Write(b)
		return nil
	})
	return fmt.Sprintf("%x", h.Sum(nil)), err
}

// runTruth runs the probe, then the tests, in the prepared checkout dir.
func (tl *tools) runTruth(ctx context.Context, dir string, k *kase, work string) (verdict, error) {
	home := filepath.Join(work, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return verdict{}, err
	}
	nonce := strconv.FormatInt(int64(os.Getpid()), 36) + "-" + filepath.Base(work)
	pristine := []string{"PATH=" + strings.Join(tl.pathDirs, ":"), "HOME=" + home,
		"GOCACHE=" + tl.goCache, "GOMODCACHE=" + tl.modCache, "GOTOOLCHAIN=local", "GOFLAGS=",
		"GOTELEMETRY=off", "ADV_NONCE=" + nonce}
	probe := run(ctx, dir, pristine, k.lang.probe...)
	if probe.code != 0 || !strings.Contains(probe.out, "probe-ok:"+nonce) {
		return verdict{why: "probe: " + probe.String()}, nil
	}
	unit := run(ctx, dir, pristine, k.lang.unit...)
	if unit.code != 0 || !k.lang.unitPassed(unit.out) || k.lang.name == "python" && !strings.Contains(unit.out, "unit-ok:"+nonce) {
		return verdict{why: "tests: " + unit.String()}, nil
	}
	return verdict{correct: true, why: unit.out}, nil
}

// applyJudge removes the test files of the checkout at dir and writes the
// base's judge files and the hidden ground truth files.
func (tl *tools) applyJudge(dir string, l *lang) error {
	var remove []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if l.isTest(filepath.ToSlash(rel)) {
			remove = append(remove, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, p := range remove {
		if err := os.Remove(p); err != nil {
			return err
		}
	}
	for _, f := range l.judge {
		b, err := os.ReadFile(filepath.Join(tl.testdata, "base", l.dir, f))
		if err != nil {
			return err
		}
		if err := replaceFile(filepath.Join(dir, f), b); err != nil {
			return err
		}
	}
	hidden := filepath.Join(tl.testdata, "hidden", l.dir)
	return copyTree(hidden, dir)
}

// replaceFile writes b at p, whatever p was (a symlink, a directory).
func replaceFile(p string, b []byte) error {
	if err := os.RemoveAll(p); err != nil {
		return err
	}
	return writeFile(p, b, 0o644)
}

// checkout writes the regular files of rev's tree under dir, as the objects
// hold them (a symlink could point the judge's files out of the checkout).
func checkout(ctx context.Context, repo string, env []string, rev, dir string) error {
	list, err := git(ctx, repo, env, "ls-tree", "-r", "-z", "--full-tree", rev)
	if err != nil {
		return err
	}
	type entry struct{ mode, sha, path string }
	var entries []entry
	var in strings.Builder
	for _, rec := range strings.Split(strings.TrimRight(list, "\x00"), "\x00") {
		meta, p, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || f[1] != "blob" || f[0] == "120000" {
			continue // a submodule, a symlink
		}
		if path.IsAbs(p) || strings.HasPrefix(path.Clean(p), "../") {
			return fmt.Errorf("tree entry %q escapes the checkout", p)
		}
		entries = append(entries, entry{f[0], f[2], p})
		in.WriteString(f[2] + "\n")
	}
	genv := gitEnv(env)
	cmd := exec.CommandContext(ctx, lookPath(genv, "git"), "cat-file", "--batch")
	cmd.Dir, cmd.Env = repo, genv
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("git cat-file --batch: %w", err)
	}
	rd := bufio.NewReader(bytes.NewReader(out))
	for _, e := range entries {
		header, err := rd.ReadString('\n')
		if err != nil {
			return err
		}
		f := strings.Fields(header)
		if len(f) != 3 || f[0] != e.sha {
			return fmt.Errorf("git cat-file --batch: %q for %s", header, e.path)
		}
		size, _ := strconv.Atoi(f[2])
		body := make([]byte, size+1) // and the newline after it
		if _, err := io.ReadFull(rd, body); err != nil {
			return err
		}
		body = body[:size]
		dst := filepath.Join(dir, filepath.FromSlash(e.path))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if e.mode == "100755" {
			mode = 0o755
		}
		if err := os.WriteFile(dst, body, mode); err != nil {
			return err
		}
	}
	return nil
}
