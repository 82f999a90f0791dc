package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// The test binary is its own helper, as planx is.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == HelperArg {
		os.Exit(Main(os.Args[2:], os.Stderr))
	}
	os.Exit(m.Run())
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"": Auto, "auto": Auto, " required ": Required, "off": Off} {
		if got, err := ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseMode("strict"); err == nil || !strings.Contains(err.Error(), "auto, required or off") {
		t.Errorf("ParseMode(strict) error = %v", err)
	}
}

// layout is a work tree with a git directory inside, a private temp
// directory and a directory outside everything allowed.
type layout struct{ tree, git, tmp, state, outside string }

func newLayout(t *testing.T) layout {
	root := t.TempDir()
	l := layout{tree: filepath.Join(root, "tree"), tmp: filepath.Join(root, "tmp"), outside: filepath.Join(root, "outside")}
	l.git = filepath.Join(l.tree, ".git")
	l.state = filepath.Join(l.git, "planx", "state")
	for _, d := range []string{l.state, l.tmp, l.outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(l.git, "config"), []byte("[core]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return l
}

func (l layout) policy() Policy {
	return Policy{Writable: []string{l.tree, l.tmp, l.state}, ReadOnly: []string{l.git}}
}

// try runs a shell command confined by c and reports whether it succeeded.
func try(t *testing.T, c *Confinement, script string) (bool, string) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	if err := c.Wrap(cmd); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	return err == nil, string(out)
}

func TestConfinedWrites(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("confinement is tested on Linux")
	}
	l := newLayout(t)
	c, err := New(Auto, l.policy())
	if err != nil {
		t.Fatal(err)
	}
	if c.Level == None {
		t.Skip("no Landlock on this kernel")
	}
	t.Logf("level %s", c.Level)
	allowed := map[string]string{
		"the work tree":         "echo x > " + l.tree + "/a.go && mkdir -p " + l.tree + "/pkg && mv " + l.tree + "/a.go " + l.tree + "/pkg/",
		"the private temp dir":  "echo x > " + l.tmp + "/f",
		"a state dir under git": "echo x > " + l.state + "/history",
		"/dev/null":             "echo x > /dev/null",
	}
	for name, script := range allowed {
		if ok, out := try(t, c, script); !ok {
			t.Errorf("%s: refused: %s", name, out)
		}
	}
	refused := map[string]string{
		"a directory outside":     "echo x > " + l.outside + "/f",
		"the tree's parent":       "echo x > " + filepath.Dir(l.tree) + "/f",
		"a symlink out of a root": "ln -s " + l.outside + " " + l.tree + "/out && echo x > " + l.tree + "/out/f",
	}
	if c.Level == Full {
		refused["the git config"] = "echo x >> " + l.git + "/config"
		refused["a new ref"] = "mkdir -p " + l.git + "/refs/replace"
	}
	for name, script := range refused {
		if ok, _ := try(t, c, script); ok {
			t.Errorf("%s: written from inside the sandbox", name)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(l.git, "config")); string(b) != "[core]\n" {
		t.Errorf("git config changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(l.outside, "f")); err == nil {
		t.Error("a file appeared outside the writable roots")
	}
}

func TestConfinedCannotSignalOutside(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("confinement is tested on Linux")
	}
	l := newLayout(t)
	c, err := New(Auto, l.policy())
	if err != nil || c.Level == None {
		t.Skip("no confinement here")
	}
	sleeper := exec.Command("sleep", "30")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	defer sleeper.Process.Kill()
	pid := sleeper.Process.Pid
	ok, _ := try(t, c, "kill -TERM "+itoa(pid))
	if ok {
		t.Error("a confined process signalled a process outside its sandbox")
	}
}

func TestOffIsUnconfined(t *testing.T) {
	l := newLayout(t)
	c, err := New(Off, l.policy())
	if err != nil || c.Level != None {
		t.Fatalf("New(Off) = %v, %v", c, err)
	}
	if ok, out := try(t, c, "echo x > "+l.outside+"/f"); !ok {
		t.Errorf("off: refused: %s", out)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
