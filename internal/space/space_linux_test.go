package space

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// available skips the test, with the kernel's reason, where spaces cannot
// be made (user namespaces or overlays in them refused).
func available(t testing.TB) {
	t.Helper()
	if err := Probe(""); err != nil {
		t.Skipf("no task spaces here: %v", err)
	}
}

func run(t testing.TB, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), gitEnv...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}

var gitEnv = []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
	"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1"}

// newRepo makes a work tree with a git repository and one commit.
func newRepo(t testing.TB, dir string) string {
	t.Helper()
	tree := filepath.Join(dir, "tree")
	files := map[string]string{"a.txt": "a\n", "gone.txt": "gone\n", "d/1": "one\n", "d/2": "two\n",
		"script.sh": "echo hi\n", "keep/k.txt": "k\n"}
	for name, body := range files {
		p := filepath.Join(tree, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(t, tree, "git", "init", "-q", "-b", "main")
	run(t, tree, "git", "add", "-A")
	run(t, tree, "git", "commit", "-qm", "initial")
	return tree
}

// fingerprint is every path beneath root with its type, mode, and its
// content's hash or its link's target.
func fingerprint(t testing.TB, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		out[strings.TrimPrefix(p, root)] = state(p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// state is one path's type, mode and content hash (or link target), or
// "absent".
func state(p string) string {
	fi, err := os.Lstat(p)
	if err != nil {
		return "absent"
	}
	s := fi.Mode().String()
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		l, _ := os.Readlink(p)
		s += " -> " + l
	case fi.Mode().IsRegular():
		b, err := os.ReadFile(p)
		if err != nil {
			return s + " unreadable"
		}
		h := sha256.Sum256(b)
		s += " " + hex.EncodeToString(h[:])
	}
	return s
}

func diffMaps(a, b map[string]string) []string {
	var d []string
	for k, v := range a {
		if b[k] != v {
			d = append(d, fmt.Sprintf("%s: %q -> %q", k, v, b[k]))
		}
	}
	for k, v := range b {
		if _, ok := a[k]; !ok {
			d = append(d, fmt.Sprintf("%s: new %q", k, v))
		}
	}
	slices.Sort(d)
	return d
}

// processesWith lists the processes (seen from here) whose command line
// holds token.
func processesWith(token string) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(b, []byte(token)) {
			out = append(out, e.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}

func moduleCache(home string) string {
	if m := os.Getenv("GOMODCACHE"); m != "" {
		return m
	}
	if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil && strings.TrimSpace(string(out)) != "" {
		return strings.TrimSpace(string(out))
	}
	return filepath.Join(home, "go", "pkg", "mod")
}

// someModule is a directory of the module cache holding a module, or "".
func someModule(cache string) string {
	m, _ := filepath.Glob(filepath.Join(cache, "golang.org", "x", "*@*"))
	if len(m) == 0 {
		return ""
	}
	return m[0]
}

// The script an agent might be: it writes its state, caches, /tmp, the
// toolchain, /etc and the module cache, changes the work tree in every way
// (edit, create, delete, a directory replaced by a file, a link, a mode),
// writes a git hook and commits, and leaves a detached process behind that
// would write later.
const agentScript = `set -e
cd "$TREE"
mkdir -p "$HOME/.claude" "$HOME/.cache" "$MODCACHE/cache/download"
echo claude > "$HOME/.claude/$TOKEN"
echo more >> "$HOME/.claude/$TOKEN-existing"
echo cache > "$HOME/.cache/$TOKEN"
echo tmp > "/tmp/$TOKEN"
echo mod > "$MODCACHE/cache/download/$TOKEN"
mkdir -p "$MODCACHE/example.com/$TOKEN@v1.0.0" && echo x > "$MODCACHE/example.com/$TOKEN@v1.0.0/go.mod"
chmod -R a-w "$MODCACHE/example.com/$TOKEN@v1.0.0"
if [ -n "$ASROOT" ]; then
	echo "# $TOKEN" >> /etc/hosts
	echo go > "/usr/local/go/$TOKEN"
	echo mod > "$MODDIR/$TOKEN"
elif echo x >> /etc/hosts 2>/dev/null; then
	echo ETC-WRITABLE
fi
echo top > "/$TOKEN"
echo mnt > "/mnt/$TOKEN"
echo changed >> a.txt
mkdir -p new && echo b > new/b.txt
rm gone.txt
rm -r d && echo now-a-file > d
ln -s a.txt link
chmod +x script.sh
printf '#!/bin/sh\nexit 0\n' > .git/hooks/pre-commit
chmod +x .git/hooks/pre-commit
git add -A
git commit -qm "agent commit"
( setsid sh -c 'echo started > started; sleep 3; echo late > late; echo late > /tmp/$0' "$TOKEN-late" & )
while [ ! -f started ]; do sleep 0.05; done
if grep -qs "$TOKEN-late" /proc/[0-9]*/cmdline; then echo SLEEPER-ALIVE; fi
`

// listing prints the files of the current directory (not .git) with
// their modes, link targets and hashes: the same in the space and in a
// tree the change was applied to.
const listing = `find . -path ./.git -prune -o \( -type f -o -type l \) -printf '%P %m %y %l\n' | LC_ALL=C sort
find . -path ./.git -prune -o -type f -print | LC_ALL=C sort | xargs sha256sum`

func TestWritesEverywhere(t *testing.T) {
	available(t)
	tmp := t.TempDir()
	tree := newRepo(t, tmp)
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	token := fmt.Sprintf("planx-space-test-%d-%d", os.Getpid(), time.Now().UnixNano())
	modcache := moduleCache(home)
	asRoot := os.Geteuid() == 0
	moddir := someModule(modcache)
	_, goErr := os.Stat("/usr/local/go")
	if asRoot && (moddir == "" || goErr != nil) {
		t.Skip("no /usr/local/go or module in the module cache to write into")
	}
	existing := filepath.Join(home, ".claude", token+"-existing")
	if err := os.MkdirAll(filepath.Dir(existing), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(existing, []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(existing) })

	outside := []string{filepath.Join(home, ".claude", token), existing, filepath.Join(home, ".cache", token),
		"/tmp/" + token, filepath.Join(modcache, "cache", "download", token), "/" + token, "/mnt/" + token,
		filepath.Join(modcache, "example.com", token+"@v1.0.0", "go.mod")}
	if asRoot {
		outside = append(outside, "/etc/hosts", "/usr/local/go/"+token, filepath.Join(moddir, token))
	}
	watched := append(slices.Clone(outside), "/tmp/"+token+"-late")
	before := map[string]string{}
	for _, p := range watched {
		before[p] = state(p)
	}
	treeBefore := fingerprint(t, tree)

	s, err := Open(Options{Root: tree, Dir: filepath.Join(tmp, "space")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cmd := exec.Command("sh", "-c", agentScript)
	cmd.Dir = tree
	cmd.Env = append(os.Environ(), gitEnv...)
	cmd.Env = append(cmd.Env, "TREE="+tree, "TOKEN="+token, "MODCACHE="+modcache, "MODDIR="+moddir)
	if asRoot {
		cmd.Env = append(cmd.Env, "ASROOT=1")
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := s.Run(context.Background(), cmd); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	t.Logf("script output: %q; warnings: %q", out.String(), s.Warnings())
	if !strings.Contains(out.String(), "SLEEPER-ALIVE") {
		t.Errorf("the detached sleeper was not running when the script ended: %s", out.String())
	}
	if strings.Contains(out.String(), "ETC-WRITABLE") {
		t.Error("a user other than root wrote /etc/hosts in the space")
	}
	if left := processesWith(token); len(left) > 0 {
		t.Errorf("processes left after Run: %q", left)
	}

	cs, err := s.Changes()
	if err != nil {
		t.Fatal(err)
	}
	wantWritten := []string{"a.txt", "d", "link", "new/b.txt", "script.sh", "started"}
	wantDeleted := []string{"d/1", "d/2", "gone.txt"}
	if !slices.Equal(cs.Written, wantWritten) || !slices.Equal(cs.Deleted, wantDeleted) {
		t.Errorf("Changes = written %q deleted %q; want %q, %q", cs.Written, cs.Deleted, wantWritten, wantDeleted)
	}
	gcs, err := s.GitChanges()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{".git/hooks/pre-commit", ".git/refs/heads/main", ".git/index"} {
		if !slices.Contains(gcs.Written, p) {
			t.Errorf("GitChanges.Written lacks %s: %q", p, gcs.Written)
		}
	}
	if b, err := os.ReadFile(filepath.Join(s.GitUpper(), "refs", "heads", "main")); err != nil || len(b) < 40 {
		t.Errorf("the agent's branch in the layer: %q, %v", b, err)
	}
	ws, err := s.Outside()
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, w := range ws {
		paths = append(paths, w.Path)
		if within(w.Path, tree) {
			t.Errorf("Outside lists a work tree path: %s", w.Path)
		}
	}
	for _, p := range outside {
		if !slices.Contains(paths, p) {
			t.Errorf("Outside lacks %s", p)
		}
	}
	t.Logf("outside: %d paths, e.g. %q", len(paths), paths[:min(len(paths), 12)])

	// The commit is in the space: git run inside it sees it, the real
	// repository does not.
	var log bytes.Buffer
	g := exec.Command("git", "log", "--format=%s", "-2")
	g.Dir, g.Stdout, g.Stderr = tree, &log, &log
	if err := s.Run(context.Background(), g); err != nil || log.String() != "agent commit\ninitial\n" {
		t.Errorf("git log in the space: %q, %v", log.String(), err)
	}
	if got := run(t, tree, "git", "log", "--format=%s"); got != "initial\n" {
		t.Errorf("git log of the real repository: %q", got)
	}

	// Let the sleeper's time pass: it is dead, nothing is written late.
	time.Sleep(3500 * time.Millisecond)
	for _, p := range []string{filepath.Join(tree, "late"), filepath.Join(s.treeUpper(), "late")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was written after Run returned", p)
		}
	}
	after := map[string]string{}
	for _, p := range watched {
		after[p] = state(p)
	}
	if d := diffMaps(before, after); len(d) > 0 {
		t.Errorf("outside the space, changed: %q", d)
	}
	if d := diffMaps(treeBefore, fingerprint(t, tree)); len(d) > 0 {
		t.Errorf("the work tree (with .git) changed: %q", d)
	}

	// Apply to a copy of the tree as it was, then to the tree itself: both
	// list what the space shows.
	var inside bytes.Buffer
	l := exec.Command("sh", "-c", listing)
	l.Dir, l.Stdout, l.Stderr = tree, &inside, &inside
	if err := s.Run(context.Background(), l); err != nil {
		t.Fatalf("listing in the space: %v\n%s", err, inside.String())
	}
	cp := filepath.Join(tmp, "copy")
	run(t, tmp, "git", "clone", "-q", tree, cp)
	for _, dst := range []string{cp, tree} {
		if err := s.Apply(dst); err != nil {
			t.Fatal(err)
		}
		if got := run(t, dst, "sh", "-c", listing); got != inside.String() {
			t.Errorf("after Apply(%s):\n%s\nthe space shows:\n%s", dst, got, inside.String())
		}
	}
	if got := run(t, tree, "git", "status", "--porcelain"); got == "" {
		t.Error("Apply to the work tree left git status clean")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(tmp, "space")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Close left the state directory: %v", err)
	}
}

// TestPersist: a path the space persists is written through to the
// machine while the program runs (a test harness polls it), and shows in
// neither Changes nor Outside; the rest of the space stays a space.
func TestPersist(t *testing.T) {
	available(t)
	dir := t.TempDir()
	tree := newRepo(t, dir)
	keep := filepath.Join(tree, ".git", "planx", "agent")
	outside := filepath.Join(dir, "signals")
	for _, d := range []string{keep, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(Options{Root: tree, Dir: filepath.Join(dir, "state"), Persist: []string{keep, outside}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	script := fmt.Sprintf("echo r > %s/reason && echo s > %s/started && echo x > a.txt && echo y > %s/not-kept",
		keep, outside, filepath.Join(dir))
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = tree
	if err := s.Run(context.Background(), cmd); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(keep, "reason"), filepath.Join(outside, "started")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("persisted %s: %v", p, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "not-kept")); err == nil {
		t.Errorf("a write beside the persisted directory reached the machine")
	}
	cs, err := s.Changes()
	if err != nil || !slices.Equal(cs.Written, []string{"a.txt"}) {
		t.Errorf("changes = %+v, %v; want a.txt alone", cs, err)
	}
	ws, err := s.Outside()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ws {
		if strings.HasPrefix(w.Path, outside) {
			t.Errorf("outside lists the persisted %s", w.Path)
		}
	}
}
