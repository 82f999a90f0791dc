package sandbox

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestConfinedAsOtherUser runs TestConfinedWrites again as an unprivileged
// user (nobody), where the mount namespace needs a user namespace: the
// path most users of planx take. Only root can switch users to try it.
func TestConfinedAsOtherUser(t *testing.T) {
	if os.Geteuid() != 0 || os.Getenv("PLANX_SANDBOX_NOBODY") != "" {
		t.Skip("needs root to run as another user")
	}
	dir, err := os.MkdirTemp("", "planx-sandbox-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "sandbox.test")
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
	cmd := exec.Command(bin, "-test.run=^TestConfinedWrites$", "-test.v", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TMPDIR=" + dir, "PLANX_SANDBOX_NOBODY=1"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestConfinedWrites") {
		t.Fatalf("as nobody, TestConfinedWrites did not pass:\n%s", out)
	}
	t.Logf("as nobody: %s", strings.TrimSpace(strings.Split(string(out), "\n")[1]))
}
