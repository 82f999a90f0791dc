package space

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestAsOtherUser runs the other tests again as an unprivileged user
// (nobody), whose space needs an unprivileged user namespace and overlays
// in it: the path most users of planx take. Only root can switch users to
// try it.
func TestAsOtherUser(t *testing.T) {
	if os.Geteuid() != 0 || os.Getenv("PLANX_SPACE_NOBODY") != "" {
		t.Skip("needs root to run as another user")
	}
	dir, err := os.MkdirTemp("", "planx-space-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	defer RemoveAll(dir)
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dir, home} {
		if err := os.Chown(d, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "space.test")
	src, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil || dst.Close() != nil {
		t.Fatal(err)
	}
	tests := []string{"TestWritesEverywhere", "TestChangesNet", "TestTerminalsNestedLoopback", "TestCancelKillsAll", "TestLinkedWorkTree",
		"TestTwoSpacesAtOnce", "TestProgramNotFound"}
	cmd := exec.Command(bin, "-test.run=^("+strings.Join(tests, "|")+")$", "-test.v", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=" + home,
		"TMPDIR=" + dir, "GOMODCACHE=" + filepath.Join(home, "go", "pkg", "mod"), "PLANX_SPACE_NOBODY=1"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
	for _, name := range tests {
		if !strings.Contains(string(out), "--- PASS: "+name+" ") {
			t.Errorf("as nobody, %s did not pass:\n%s", name, out)
		}
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "--- ") || strings.Contains(line, "paths, e.g.") || strings.Contains(line, "no capabilities") {
			t.Logf("as nobody: %s", strings.TrimSpace(line))
		}
	}
}
